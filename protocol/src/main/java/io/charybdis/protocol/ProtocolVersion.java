package io.charybdis.protocol;

/** The native protocol versions this node speaks. */
public enum ProtocolVersion {
    V3(3),
    V4(4),
    V5(5);

    /** The text listed in version errors; drivers parse it to step down. */
    public static final String SUPPORTED_VERSIONS_TEXT = "3/v3, 4/v4, 5/v5";

    public static final ProtocolVersion MIN_SUPPORTED = V3;
    public static final ProtocolVersion MAX_SUPPORTED = V5;

    private final int code;

    ProtocolVersion(int code) {
        this.code = code;
    }

    public int code() {
        return code;
    }

    public boolean isAtLeast(ProtocolVersion other) {
        return code >= other.code;
    }

    /** True where requests and responses travel inside v5 frames once the STARTUP exchange is over. */
    public boolean usesFraming() {
        return this == V5;
    }

    public static boolean isSupported(int code) {
        return code >= 3 && code <= 5;
    }

    /** @throws ProtocolVersionException (stream 0) for any code other than 3, 4 or 5 */
    public static ProtocolVersion fromCode(int code) {
        return switch (code) {
            case 3 -> V3;
            case 4 -> V4;
            case 5 -> V5;
            default -> throw new ProtocolVersionException(code, 0);
        };
    }
}
