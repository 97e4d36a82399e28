package io.charybdis.protocol.types;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Date;
import java.util.HexFormat;

/** Validation, conversion, literals and order of the native types. Buffers are read with absolute gets. */
final class NativeCodec {
    static final long MAX_TIME_NANOS = 86_399_999_999_999L;
    static final long EPOCH_DAY_OFFSET = 1L << 31;
    private static final DateTimeFormatter TIMESTAMP_FORMAT =
            DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSS'Z'").withZone(ZoneOffset.UTC);
    private static final HexFormat HEX = HexFormat.of();

    private NativeCodec() {
    }

    static void validate(NativeType t, ByteBuffer v) {
        int n = v.remaining();
        switch (t) {
            case ASCII -> {
                for (int i = v.position(); i < v.limit(); i++) {
                    byte b = v.get(i);
                    if (b < 0) {
                        throw new MarshalException("Invalid byte for ascii: " + b);
                    }
                }
            }
            case TEXT -> {
                try {
                    StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                            .onUnmappableCharacter(CodingErrorAction.REPORT).decode(v.duplicate());
                } catch (CharacterCodingException e) {
                    throw new MarshalException("String didn't validate.");
                }
            }
            case BLOB, VARINT -> {
            }
            case BIGINT, COUNTER -> expect(n == 8 || n == 0, "Expected 8 or 0 byte long (" + n + ")");
            case INT -> expect(n == 4 || n == 0, "Expected 4 or 0 byte int (" + n + ")");
            case BOOLEAN -> expect(n == 1 || n == 0, "Expected 1 or 0 byte value (" + n + ")");
            case DOUBLE -> expect(n == 8 || n == 0, "Expected 8 or 0 byte value for a double (" + n + ")");
            case FLOAT -> expect(n == 4 || n == 0, "Expected 4 or 0 byte value for a float (" + n + ")");
            case DECIMAL -> expect(n == 0 || n >= 4, "Expected 0 or at least 4 bytes (" + n + ")");
            case TIMESTAMP -> expect(n == 8 || n == 0, "Expected 8 or 0 byte long for date (" + n + ")");
            case UUID -> expect(n == 16 || n == 0, "UUID should be 16 or 0 bytes (" + n + ")");
            case TIMEUUID -> {
                expect(n == 16 || n == 0, "UUID should be 16 or 0 bytes (" + n + ")");
                if (n == 16) {
                    expect(((v.get(v.position() + 6) >> 4) & 0x0F) == 1, "Invalid version for TimeUUID type.");
                }
            }
            case INET -> expect(n == 4 || n == 16 || n == 0,
                    "Expected 4 or 16 byte inetaddress address, got " + n);
            case DATE -> expect(n == 4, "Expected 4 byte long for date (" + n + ")");
            case TIME -> {
                expect(n == 8, "Expected 8 byte long for time (" + n + ")");
                long nanos = v.getLong(v.position());
                expect(nanos >= 0 && nanos <= MAX_TIME_NANOS,
                        "Time value must be between 0 and " + MAX_TIME_NANOS + " nanoseconds (" + nanos + ")");
            }
            case SMALLINT -> expect(n == 2, "Expected 2 bytes for a smallint (" + n + ")");
            case TINYINT -> expect(n == 1, "Expected 1 byte for a tinyint (" + n + ")");
            case DURATION -> {
                expect(n >= 3, "Expected at least 3 bytes for a duration (" + n + ")");
                readDuration(v.duplicate());
            }
            case EMPTY -> expect(n == 0, "EmptyType only accept empty values");
            default -> throw new AssertionError(t);
        }
    }

    private static void expect(boolean ok, String message) {
        if (!ok) {
            throw new MarshalException(message);
        }
    }

    static CqlDuration readDuration(ByteBuffer v) {
        long months = VInt.readSigned(v);
        long days = VInt.readSigned(v);
        long nanos = VInt.readSigned(v);
        if (v.hasRemaining()) {
            throw new MarshalException("Unexpected extraneous bytes after duration value");
        }
        if (months != (int) months) {
            throw new MarshalException("The duration months must be a 32 bits integer but was: " + months);
        }
        if (days != (int) days) {
            throw new MarshalException("The duration days must be a 32 bits integer but was: " + days);
        }
        if (!CqlDuration.sameSign(months, days, nanos)) {
            throw new MarshalException("The duration months, days and nanoseconds must be all of the same sign ("
                    + months + ", " + days + ", " + nanos + ")");
        }
        return new CqlDuration((int) months, (int) days, nanos);
    }

    private static byte[] bytes(ByteBuffer v) {
        byte[] b = new byte[v.remaining()];
        v.duplicate().get(b);
        return b;
    }

    static Object compose(NativeType t, ByteBuffer v) {
        int p = v.position();
        if (!v.hasRemaining() && t != NativeType.ASCII && t != NativeType.TEXT && t != NativeType.BLOB) {
            return null;
        }
        return switch (t) {
            case ASCII -> StandardCharsets.US_ASCII.decode(v).toString();
            case TEXT -> StandardCharsets.UTF_8.decode(v).toString();
            case BLOB -> ByteBuffer.wrap(bytes(v)).asReadOnlyBuffer();
            case BIGINT, COUNTER -> v.getLong(p);
            case INT -> v.getInt(p);
            case BOOLEAN -> v.get(p) != 0;
            case DOUBLE -> v.getDouble(p);
            case FLOAT -> v.getFloat(p);
            case DECIMAL -> new BigDecimal(new BigInteger(bytes(v.duplicate().position(p + 4))), v.getInt(p));
            case VARINT -> new BigInteger(bytes(v));
            case TIMESTAMP -> Instant.ofEpochMilli(v.getLong(p));
            case UUID, TIMEUUID -> new java.util.UUID(v.getLong(p), v.getLong(p + 8));
            case INET -> {
                try {
                    yield InetAddress.getByAddress(bytes(v));
                } catch (UnknownHostException e) {
                    throw new MarshalException("Invalid inet address: " + e.getMessage());
                }
            }
            case DATE -> LocalDate.ofEpochDay((v.getInt(p) & 0xFFFFFFFFL) - EPOCH_DAY_OFFSET);
            case TIME -> v.getLong(p);
            case SMALLINT -> v.getShort(p);
            case TINYINT -> v.get(p);
            case DURATION -> readDuration(v);
            case EMPTY -> null;
        };
    }

    static ByteBuffer decompose(NativeType t, Object o) {
        try {
            return switch (t) {
                case ASCII -> {
                    String s = (String) o;
                    for (int i = 0; i < s.length(); i++) {
                        if (s.charAt(i) > 127) {
                            throw new MarshalException("Invalid ASCII character in string literal: " + s);
                        }
                    }
                    yield ByteBuffer.wrap(s.getBytes(StandardCharsets.US_ASCII));
                }
                case TEXT -> ByteBuffer.wrap(((String) o).getBytes(StandardCharsets.UTF_8));
                case BLOB -> o instanceof byte[] b ? ByteBuffer.wrap(b.clone()) : ((ByteBuffer) o).duplicate();
                case BIGINT, COUNTER -> ByteBuffer.allocate(8).putLong(0, exactLong(o));
                case INT -> ByteBuffer.allocate(4).putInt(0, Math.toIntExact(exactLong(o)));
                case SMALLINT -> {
                    long l = exactLong(o);
                    if (l != (short) l) {
                        throw new MarshalException("Value out of range for smallint: " + l);
                    }
                    yield ByteBuffer.allocate(2).putShort(0, (short) l);
                }
                case TINYINT -> {
                    long l = exactLong(o);
                    if (l != (byte) l) {
                        throw new MarshalException("Value out of range for tinyint: " + l);
                    }
                    yield ByteBuffer.allocate(1).put(0, (byte) l);
                }
                case BOOLEAN -> ByteBuffer.allocate(1).put(0, (byte) (((Boolean) o) ? 1 : 0));
                case DOUBLE -> ByteBuffer.allocate(8).putDouble(0, ((Number) o).doubleValue());
                case FLOAT -> ByteBuffer.allocate(4).putFloat(0, ((Number) o).floatValue());
                case DECIMAL -> {
                    BigDecimal d = o instanceof BigDecimal bd ? bd : new BigDecimal(o.toString());
                    byte[] unscaled = d.unscaledValue().toByteArray();
                    yield ByteBuffer.allocate(4 + unscaled.length).putInt(d.scale()).put(unscaled).flip();
                }
                case VARINT -> ByteBuffer.wrap((o instanceof BigInteger bi ? bi
                        : BigInteger.valueOf(exactLong(o))).toByteArray());
                case TIMESTAMP -> ByteBuffer.allocate(8).putLong(0, switch (o) {
                    case Instant i -> i.toEpochMilli();
                    case Date d -> d.getTime();
                    default -> exactLong(o);
                });
                case UUID, TIMEUUID -> {
                    java.util.UUID u = (java.util.UUID) o;
                    ByteBuffer b = ByteBuffer.allocate(16).putLong(0, u.getMostSignificantBits())
                            .putLong(8, u.getLeastSignificantBits());
                    if (t == NativeType.TIMEUUID && u.version() != 1) {
                        throw new MarshalException("Invalid version for TimeUUID type.");
                    }
                    yield b;
                }
                case INET -> ByteBuffer.wrap(((InetAddress) o).getAddress());
                case DATE -> {
                    long days = o instanceof LocalDate d ? d.toEpochDay() + EPOCH_DAY_OFFSET : exactLong(o);
                    if (o instanceof LocalDate && (days < 0 || days > 0xFFFFFFFFL)) {
                        throw new MarshalException("Date out of range: " + o);
                    }
                    yield ByteBuffer.allocate(4).putInt(0, (int) days);
                }
                case TIME -> {
                    long nanos = o instanceof LocalTime lt ? lt.toNanoOfDay() : exactLong(o);
                    if (nanos < 0 || nanos > MAX_TIME_NANOS) {
                        throw new MarshalException("Time value out of range: " + nanos);
                    }
                    yield ByteBuffer.allocate(8).putLong(0, nanos);
                }
                case DURATION -> {
                    CqlDuration d = (CqlDuration) o;
                    ByteBuffer b = ByteBuffer.allocate(VInt.signedSize(d.months()) + VInt.signedSize(d.days())
                            + VInt.signedSize(d.nanoseconds()));
                    VInt.writeSigned(b, d.months());
                    VInt.writeSigned(b, d.days());
                    VInt.writeSigned(b, d.nanoseconds());
                    yield b.flip();
                }
                case EMPTY -> ByteBuffer.allocate(0);
            };
        } catch (ClassCastException | ArithmeticException e) {
            throw new MarshalException("Cannot convert " + o.getClass().getSimpleName() + " value " + o
                    + " to type " + t.cqlName(), e);
        }
    }

    private static long exactLong(Object o) {
        return switch (o) {
            case Long l -> l;
            case Integer i -> i;
            case Short s -> s;
            case Byte b -> b;
            case BigInteger bi -> bi.longValueExact();
            default -> throw new ClassCastException(o.getClass().getName());
        };
    }

    static String toCqlLiteral(NativeType t, ByteBuffer v) {
        validate(t, v);
        if (!v.hasRemaining() && t != NativeType.ASCII && t != NativeType.TEXT && t != NativeType.BLOB) {
            return "";
        }
        return switch (t) {
            case ASCII, TEXT -> quote((String) compose(t, v));
            case BLOB -> "0x" + HEX.formatHex(bytes(v));
            case INET -> quote(((InetAddress) compose(t, v)).getHostAddress());
            case TIMESTAMP -> quote(TIMESTAMP_FORMAT.format((Instant) compose(t, v)));
            case DATE -> quote(compose(t, v).toString());
            case TIME -> quote(formatTime((Long) compose(t, v)));
            default -> String.valueOf(compose(t, v));
        };
    }

    static String quote(String s) {
        return "'" + s.replace("'", "''") + "'";
    }

    static String formatTime(long nanos) {
        LocalTime lt = LocalTime.ofNanoOfDay(nanos);
        return String.format("%02d:%02d:%02d.%09d", lt.getHour(), lt.getMinute(), lt.getSecond(), lt.getNano());
    }

    static int compare(NativeType t, ByteBuffer a, ByteBuffer b) {
        if (!a.hasRemaining() || !b.hasRemaining()) {
            return Boolean.compare(a.hasRemaining(), b.hasRemaining());
        }
        int pa = a.position();
        int pb = b.position();
        return switch (t) {
            case BIGINT, COUNTER, TIMESTAMP, TIME -> Long.compare(a.getLong(pa), b.getLong(pb));
            case INT -> Integer.compare(a.getInt(pa), b.getInt(pb));
            case SMALLINT -> Short.compare(a.getShort(pa), b.getShort(pb));
            case TINYINT -> Byte.compare(a.get(pa), b.get(pb));
            case DOUBLE -> Double.compare(a.getDouble(pa), b.getDouble(pb));
            case FLOAT -> Float.compare(a.getFloat(pa), b.getFloat(pb));
            case DECIMAL -> ((BigDecimal) compose(t, a)).compareTo((BigDecimal) compose(t, b));
            case VARINT -> ((BigInteger) compose(t, a)).compareTo((BigInteger) compose(t, b));
            case DATE -> Integer.compareUnsigned(a.getInt(pa), b.getInt(pb));
            case UUID -> compareUuid(a, b);
            case TIMEUUID -> compareTimeUuid(a, b);
            default -> compareUnsigned(a, b);
        };
    }

    /** Lexicographic order of unsigned bytes, shorter first on a common prefix. */
    static int compareUnsigned(ByteBuffer a, ByteBuffer b) {
        int n = Math.min(a.remaining(), b.remaining());
        int pa = a.position();
        int pb = b.position();
        for (int i = 0; i < n; i++) {
            int c = Integer.compare(a.get(pa + i) & 0xFF, b.get(pb + i) & 0xFF);
            if (c != 0) {
                return c;
            }
        }
        return Integer.compare(a.remaining(), b.remaining());
    }

    /** The 60-bit timestamp of a version 1 UUID's msb, with the version nibble on top (time_hi first). */
    static long reorderTimestamp(long msb) {
        return (msb << 48) | ((msb << 16) & 0xFFFF_0000_0000L) | (msb >>> 32);
    }

    /** UUIDType: by version; version 1 by timestamp; then msb and lsb as unsigned. */
    static int compareUuid(ByteBuffer a, ByteBuffer b) {
        long msbA = a.getLong(a.position());
        long msbB = b.getLong(b.position());
        int versionA = (int) ((msbA >>> 12) & 0xF);
        int versionB = (int) ((msbB >>> 12) & 0xF);
        if (versionA != versionB) {
            return Integer.compare(versionA, versionB);
        }
        int c = versionA == 1
                ? Long.compareUnsigned(reorderTimestamp(msbA), reorderTimestamp(msbB))
                : Long.compareUnsigned(msbA, msbB);
        if (c != 0) {
            return c;
        }
        return Long.compareUnsigned(a.getLong(a.position() + 8), b.getLong(b.position() + 8));
    }

    /** TimeUUIDType: by timestamp, then the lsb bytes compared as signed bytes (Cassandra's legacy order). */
    static int compareTimeUuid(ByteBuffer a, ByteBuffer b) {
        int c = Long.compareUnsigned(reorderTimestamp(a.getLong(a.position())),
                reorderTimestamp(b.getLong(b.position())));
        if (c != 0) {
            return c;
        }
        long lsbA = a.getLong(a.position() + 8) ^ 0x0080_8080_8080_8080L;
        long lsbB = b.getLong(b.position() + 8) ^ 0x0080_8080_8080_8080L;
        return Long.compare(lsbA, lsbB);
    }
}
