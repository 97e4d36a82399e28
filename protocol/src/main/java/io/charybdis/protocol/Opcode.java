package io.charybdis.protocol;

/** Message types (the header's opcode byte) and the direction each travels in. */
public enum Opcode {
    ERROR(0x00, false),
    STARTUP(0x01, true),
    READY(0x02, false),
    AUTHENTICATE(0x03, false),
    OPTIONS(0x05, true),
    SUPPORTED(0x06, false),
    QUERY(0x07, true),
    RESULT(0x08, false),
    PREPARE(0x09, true),
    EXECUTE(0x0A, true),
    REGISTER(0x0B, true),
    EVENT(0x0C, false),
    BATCH(0x0D, true),
    AUTH_CHALLENGE(0x0E, false),
    AUTH_RESPONSE(0x0F, true),
    AUTH_SUCCESS(0x10, false);

    private static final Opcode[] BY_CODE = new Opcode[0x11];

    static {
        for (Opcode o : values()) {
            BY_CODE[o.code] = o;
        }
    }

    private final int code;
    private final boolean request;

    Opcode(int code, boolean request) {
        this.code = code;
        this.request = request;
    }

    public int code() {
        return code;
    }

    /** True for messages a client sends, false for those a server sends. */
    public boolean isRequest() {
        return request;
    }

    /** The opcode with this code, or null when there is none (0x04 and anything above 0x10). */
    public static Opcode fromCode(int code) {
        return code >= 0 && code < BY_CODE.length ? BY_CODE[code] : null;
    }
}
