package io.charybdis.node.config;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * An amount of data, written in configuration the way Cassandra 5.0's {@code DataStorageSpec} accepts it:
 * a non-negative integer followed by one of the units {@code B}, {@code KiB}, {@code MiB}, {@code GiB}
 * (binary multiples), e.g. {@code 16MiB}. Whitespace between number and unit is tolerated and unit case is
 * ignored ({@code 16mib}); a bare number is rejected because it is ambiguous — the legacy {@code *_in_mb} /
 * {@code *_in_kb} keys exist for that.
 */
public record DataSize(long bytes) implements Comparable<DataSize> {

    private static final Pattern SPEC = Pattern.compile("^(\\d+)\\s*(B|KiB|MiB|GiB)$", Pattern.CASE_INSENSITIVE);

    public static final long KIB = 1024L;
    public static final long MIB = 1024L * KIB;
    public static final long GIB = 1024L * MIB;

    public DataSize {
        if (bytes < 0) {
            throw new IllegalArgumentException("negative data size: " + bytes);
        }
    }

    public static DataSize ofBytes(long bytes) {
        return new DataSize(bytes);
    }

    public static DataSize ofKibibytes(long kib) {
        return new DataSize(Math.multiplyExact(kib, KIB));
    }

    public static DataSize ofMebibytes(long mib) {
        return new DataSize(Math.multiplyExact(mib, MIB));
    }

    public static DataSize ofGibibytes(long gib) {
        return new DataSize(Math.multiplyExact(gib, GIB));
    }

    /** Parses {@code 16MiB}-style text; throws {@link IllegalArgumentException} with the accepted forms. */
    public static DataSize parse(String text) {
        String trimmed = text.trim();
        Matcher m = SPEC.matcher(trimmed);
        if (!m.matches()) {
            throw new IllegalArgumentException("'" + text + "' is not a data size; expected a whole number with one of"
                    + " the units B, KiB, MiB, GiB, e.g. 16MiB");
        }
        long amount;
        try {
            amount = Long.parseLong(m.group(1));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("'" + text + "' is too large", e);
        }
        long unit = switch (m.group(2).toLowerCase(Locale.ROOT)) {
            case "b" -> 1L;
            case "kib" -> KIB;
            case "mib" -> MIB;
            default -> GIB;
        };
        try {
            return new DataSize(Math.multiplyExact(amount, unit));
        } catch (ArithmeticException e) {
            throw new IllegalArgumentException("'" + text + "' is too large", e);
        }
    }

    public long toKibibytes() {
        return bytes / KIB;
    }

    public long toMebibytes() {
        return bytes / MIB;
    }

    /** The size in bytes as an int, for buffer sizes; fails if it does not fit. */
    public int toBytesInt() {
        return Math.toIntExact(bytes);
    }

    @Override
    public int compareTo(DataSize other) {
        return Long.compare(bytes, other.bytes);
    }

    /** The largest unit that represents the size exactly, e.g. {@code 16MiB}, {@code 1536KiB}, {@code 0B}. */
    @Override
    public String toString() {
        if (bytes != 0 && bytes % GIB == 0) {
            return bytes / GIB + "GiB";
        }
        if (bytes != 0 && bytes % MIB == 0) {
            return bytes / MIB + "MiB";
        }
        if (bytes != 0 && bytes % KIB == 0) {
            return bytes / KIB + "KiB";
        }
        return bytes + "B";
    }
}
