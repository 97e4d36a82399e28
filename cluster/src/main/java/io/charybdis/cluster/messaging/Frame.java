package io.charybdis.cluster.messaging;

import io.netty.buffer.ByteBuf;
import io.netty.util.ReferenceCounted;

/**
 * One decoded internode frame. Owns its payload: whoever takes the frame releases it (or hands it on).
 *
 * @param verbCode the verb's wire code (a {@link Verb} for requests; kept raw so an unknown one can be answered)
 * @param timeoutMillis for a request: how long the sender waits for the answer (the receiver drops it once that
 *                      is past); 0 otherwise
 */
record Frame(int kind, int verbCode, long id, long epoch, int timeoutMillis, ByteBuf payload) implements ReferenceCounted {
    @Override
    public int refCnt() {
        return payload.refCnt();
    }

    @Override
    public Frame retain() {
        payload.retain();
        return this;
    }

    @Override
    public Frame retain(int increment) {
        payload.retain(increment);
        return this;
    }

    @Override
    public Frame touch() {
        payload.touch();
        return this;
    }

    @Override
    public Frame touch(Object hint) {
        payload.touch(hint);
        return this;
    }

    @Override
    public boolean release() {
        return payload.release();
    }

    @Override
    public boolean release(int decrement) {
        return payload.release(decrement);
    }
}
