package io.charybdis.node.cql.values;

import java.nio.ByteBuffer;
import java.util.List;

/** The bound values of one execution, plus the statement's notion of "now". */
public record BindContext(List<ByteBuffer> values, long nowMicros, int nowInSeconds) {
    public ByteBuffer value(int index) {
        return values.get(index);
    }
}
