package io.charybdis.protocol.response;

import io.charybdis.protocol.Envelope;
import io.charybdis.protocol.ProtocolException;
import io.charybdis.protocol.ProtocolVersion;
import io.netty.buffer.ByteBufAllocator;

import java.util.List;
import java.util.Map;

/**
 * Entry point for building responses:
 * <pre>
 *   Envelope r = Responses.to(alloc, version, request.streamId()).warnings(ws).voidResult();
 *   Envelope e = Responses.to(alloc, version, stream).unavailable("Cannot achieve consistency level QUORUM",
 *                                                                   Consistency.QUORUM, 2, 1);
 * </pre>
 */
public final class Responses {
    /** Events are pushed on this stream id. */
    public static final int EVENT_STREAM_ID = -1;

    private Responses() {
    }

    public static ResponseBuilder to(ByteBufAllocator alloc, ProtocolVersion version, int streamId) {
        return new ResponseBuilder(alloc, version, streamId);
    }

    public static Envelope ready(ByteBufAllocator alloc, ProtocolVersion version, int streamId) {
        return to(alloc, version, streamId).ready();
    }

    public static Envelope supported(ByteBufAllocator alloc, ProtocolVersion version, int streamId,
                                     Map<String, List<String>> options) {
        return to(alloc, version, streamId).supported(options);
    }

    /** The ERROR for a {@link ProtocolException}: its code and message, on its stream. */
    public static Envelope error(ByteBufAllocator alloc, ProtocolVersion version, ProtocolException e) {
        return to(alloc, version, e.streamId()).error(e.errorCode(), e.getMessage());
    }

    public static Envelope event(ByteBufAllocator alloc, ProtocolVersion version, Event event) {
        return to(alloc, version, EVENT_STREAM_ID).event(event);
    }
}
