package io.charybdis.protocol;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;

import java.nio.charset.StandardCharsets;

/**
 * A client asked for a protocol version other than 4 or 5. The message is the one Cassandra sends, which drivers
 * parse to step down: {@code Invalid or unsupported protocol version (6); supported versions are (3/v3, 4/v4, 5/v5)}.
 *
 * <p>The reply must be readable by the client, so it is written with {@link #responseVersionCode()} in its header:
 * the requested version itself when it is an older one (1–3, whose drivers cannot read v4/v5 headers), otherwise
 * our highest (5), as Cassandra does. {@link #encodeErrorResponse(ByteBufAllocator)} writes the whole reply in
 * the legacy (unframed) layout, ready to go straight to the channel; the connection is closed after it.
 */
public class ProtocolVersionException extends ProtocolException {
    private final int requestedVersion;

    public ProtocolVersionException(int requestedVersion, int streamId) {
        super(message(requestedVersion), streamId, true);
        this.requestedVersion = requestedVersion;
    }

    public static String message(int requestedVersion) {
        return "Invalid or unsupported protocol version (" + requestedVersion + "); supported versions are ("
                + ProtocolVersion.SUPPORTED_VERSIONS_TEXT + ")";
    }

    public int requestedVersion() {
        return requestedVersion;
    }

    @Override
    public ProtocolVersionException withStreamId(int newStreamId) {
        return new ProtocolVersionException(requestedVersion, newStreamId);
    }

    /** The version to put in the reply's header. */
    public int responseVersionCode() {
        if (requestedVersion >= 1 && requestedVersion < ProtocolVersion.MIN_SUPPORTED.code()) {
            return requestedVersion;
        }
        return ProtocolVersion.MAX_SUPPORTED.code();
    }

    /** The full ERROR reply (header and body) in the layout of {@link #responseVersionCode()}. */
    public ByteBuf encodeErrorResponse(ByteBufAllocator alloc) {
        return encodeErrorResponse(alloc, responseVersionCode());
    }

    /**
     * The full ERROR reply (PROTOCOL_ERROR with this message) with {@code versionCode} in the header. Versions 1 and 2
     * have an 8-byte header with a one-byte stream id; later versions the 9-byte header of {@link EnvelopeHeader}.
     */
    public ByteBuf encodeErrorResponse(ByteBufAllocator alloc, int versionCode) {
        byte[] msg = getMessage().getBytes(StandardCharsets.UTF_8);
        int bodyLength = 4 + 2 + msg.length;
        ByteBuf out = alloc.buffer(EnvelopeHeader.LENGTH + bodyLength);
        out.writeByte(EnvelopeHeader.RESPONSE_BIT | (versionCode & EnvelopeHeader.VERSION_MASK));
        out.writeByte(0);
        if (versionCode <= 2) {
            out.writeByte(streamId());
        } else {
            out.writeShort(streamId());
        }
        out.writeByte(Opcode.ERROR.code());
        out.writeInt(bodyLength);
        out.writeInt(ErrorCode.PROTOCOL_ERROR.code());
        out.writeShort(msg.length);
        out.writeBytes(msg);
        return out;
    }
}
