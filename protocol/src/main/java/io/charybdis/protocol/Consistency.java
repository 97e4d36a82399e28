package io.charybdis.protocol;

/** Consistency levels with their wire codes ([consistency] is a [short]). */
public enum Consistency {
    ANY(0x00),
    ONE(0x01),
    TWO(0x02),
    THREE(0x03),
    QUORUM(0x04),
    ALL(0x05),
    LOCAL_QUORUM(0x06),
    EACH_QUORUM(0x07),
    SERIAL(0x08),
    LOCAL_SERIAL(0x09),
    LOCAL_ONE(0x0A);

    private static final Consistency[] BY_CODE = values();

    private final int code;

    Consistency(int code) {
        this.code = code;
    }

    public int code() {
        return code;
    }

    public boolean isSerial() {
        return this == SERIAL || this == LOCAL_SERIAL;
    }

    public boolean isDatacenterLocal() {
        return this == LOCAL_ONE || this == LOCAL_QUORUM || this == LOCAL_SERIAL;
    }

    /** @throws ProtocolException for an unknown code */
    public static Consistency fromCode(int code) {
        if (code < 0 || code >= BY_CODE.length) {
            throw new ProtocolException("Unknown code " + code + " for a consistency level");
        }
        return BY_CODE[code];
    }
}
