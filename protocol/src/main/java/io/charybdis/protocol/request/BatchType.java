package io.charybdis.protocol.request;

import io.charybdis.protocol.ProtocolException;

public enum BatchType {
    LOGGED(0),
    UNLOGGED(1),
    COUNTER(2);

    private final int code;

    BatchType(int code) {
        this.code = code;
    }

    public int code() {
        return code;
    }

    public static BatchType fromCode(int code) {
        return switch (code) {
            case 0 -> LOGGED;
            case 1 -> UNLOGGED;
            case 2 -> COUNTER;
            default -> throw new ProtocolException("Unknown batch type " + code);
        };
    }
}
