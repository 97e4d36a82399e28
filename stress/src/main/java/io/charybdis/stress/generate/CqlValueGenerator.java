package io.charybdis.stress.generate;

import com.datastax.oss.driver.api.core.data.CqlDuration;
import com.datastax.oss.driver.api.core.type.DataType;
import com.datastax.oss.driver.api.core.type.DataTypes;
import com.datastax.oss.driver.api.core.type.ListType;
import com.datastax.oss.driver.api.core.type.MapType;
import com.datastax.oss.driver.api.core.type.SetType;
import io.charybdis.stress.dist.DistributionSpec;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.UUID;
import java.util.function.LongFunction;

/**
 * The values of one CQL type as a pure function of an identity (a number drawn from the column's
 * {@code population}), in the Java types the driver binds: text and blob values take their length from the
 * column's {@code size} distribution, numbers are the identity itself (narrowed for int, smallint, tinyint), a
 * timestamp is the identity in milliseconds since the epoch, uuids and inets are derived from its bits, and a
 * collection holds {@code size} elements derived from it (text and blob elements sized by
 * {@link #ELEMENT_SIZE}). Not thread-safe: each load thread builds its own.
 */
public final class CqlValueGenerator {

    /** The size of text and blob elements inside collections. */
    public static final DistributionSpec ELEMENT_SIZE = DistributionSpec.parse("uniform(4..8)");

    /** 100-nanosecond intervals between the UUID epoch (1582-10-15) and the Unix epoch. */
    private static final long UUID_EPOCH_OFFSET = 0x01B21DD213814000L;
    private static final long NANOS_PER_DAY = 86_400_000_000_000L;
    /** Dates fall within this many days from 1970-01-01 (about 11,500 years). */
    private static final long DATE_RANGE_DAYS = 1L << 22;

    private final LongFunction<Object> values;

    private CqlValueGenerator(LongFunction<Object> values) {
        this.values = values;
    }

    /**
     * A generator of {@code type} with text, blob and collection sizes from {@code size}.
     *
     * @throws IllegalArgumentException for a type it cannot generate (tuples, user types, vectors, custom types)
     */
    public static CqlValueGenerator of(DataType type, DistributionSpec size) {
        return new CqlValueGenerator(function(type, size));
    }

    public Object value(long identity) {
        return values.apply(identity);
    }

    private static LongFunction<Object> function(DataType type, DistributionSpec size) {
        if (type instanceof ListType || type instanceof SetType) {
            boolean list = type instanceof ListType;
            DataType elementType = list ? ((ListType) type).getElementType() : ((SetType) type).getElementType();
            LongFunction<Object> element = function(elementType, ELEMENT_SIZE);
            ValueGenerator count = new ValueGenerator(size);
            return id -> {
                Collection<Object> out = list ? new ArrayList<>() : new LinkedHashSet<>();
                fill(count.size(id), id, i -> out.add(element.apply(i)));
                return out;
            };
        }
        if (type instanceof MapType map) {
            LongFunction<Object> key = function(map.getKeyType(), ELEMENT_SIZE);
            LongFunction<Object> value = function(map.getValueType(), ELEMENT_SIZE);
            ValueGenerator count = new ValueGenerator(size);
            return id -> {
                Map<Object, Object> out = new LinkedHashMap<>();
                fill(count.size(id), id, i -> out.put(key.apply(i), value.apply(~i)));
                return out;
            };
        }
        if (type.equals(DataTypes.TEXT) || type.equals(DataTypes.ASCII)) {
            return new ValueGenerator(size)::text;
        }
        if (type.equals(DataTypes.BLOB)) {
            return new ValueGenerator(size)::bytes;
        }
        if (type.equals(DataTypes.BIGINT) || type.equals(DataTypes.COUNTER)) {
            return id -> id;
        }
        if (type.equals(DataTypes.INT)) {
            return id -> (int) id;
        }
        if (type.equals(DataTypes.SMALLINT)) {
            return id -> (short) id;
        }
        if (type.equals(DataTypes.TINYINT)) {
            return id -> (byte) id;
        }
        if (type.equals(DataTypes.VARINT)) {
            return BigInteger::valueOf;
        }
        if (type.equals(DataTypes.DECIMAL)) {
            return id -> BigDecimal.valueOf(id, 2);
        }
        if (type.equals(DataTypes.DOUBLE)) {
            return id -> (double) id;
        }
        if (type.equals(DataTypes.FLOAT)) {
            return id -> (float) id;
        }
        if (type.equals(DataTypes.BOOLEAN)) {
            return id -> (id & 1) == 0;
        }
        if (type.equals(DataTypes.TIMESTAMP)) {
            return Instant::ofEpochMilli;
        }
        if (type.equals(DataTypes.DATE)) {
            return id -> LocalDate.ofEpochDay(Math.floorMod(id, DATE_RANGE_DAYS));
        }
        if (type.equals(DataTypes.TIME)) {
            return id -> LocalTime.ofNanoOfDay(Math.floorMod(id, NANOS_PER_DAY));
        }
        if (type.equals(DataTypes.DURATION)) {
            return id -> CqlDuration.newInstance(0, 0, Math.floorMod(id, NANOS_PER_DAY));
        }
        if (type.equals(DataTypes.UUID)) {
            return CqlValueGenerator::randomUuid;
        }
        if (type.equals(DataTypes.TIMEUUID)) {
            return CqlValueGenerator::timeUuid;
        }
        if (type.equals(DataTypes.INET)) {
            return CqlValueGenerator::inet;
        }
        throw new IllegalArgumentException("charybdis-stress cannot generate values of type " + type.asCql(true, true));
    }

    private static void fill(int n, long id, java.util.function.LongConsumer add) {
        for (int i = 0; i < n; i++) {
            add.accept(ValueGenerator.mix(id * 31 + i));
        }
    }

    /** A version 4 (random) UUID whose bits are derived from the identity. */
    static UUID randomUuid(long id) {
        long msb = ValueGenerator.mix(id);
        long lsb = ValueGenerator.mix(~id);
        msb = (msb & ~0xF000L) | 0x4000L;
        lsb = (lsb & 0x3FFFFFFFFFFFFFFFL) | 0x8000000000000000L;
        return new UUID(msb, lsb);
    }

    /** A version 1 (time) UUID at the identity's millisecond since the epoch, clock and node derived from it. */
    static UUID timeUuid(long id) {
        long time = (UUID_EPOCH_OFFSET + Math.floorMod(id, 1L << 43) * 10_000L) & 0x0FFFFFFFFFFFFFFFL;
        long msb = (time << 32) | ((time >>> 16) & 0xFFFF0000L) | 0x1000L | ((time >>> 48) & 0x0FFFL);
        long lsb = (ValueGenerator.mix(id) & 0x3FFFFFFFFFFFFFFFL) | 0x8000000000000000L;
        return new UUID(msb, lsb);
    }

    static InetAddress inet(long id) {
        int v = (int) id;
        try {
            return InetAddress.getByAddress(new byte[] {(byte) (v >>> 24), (byte) (v >>> 16), (byte) (v >>> 8), (byte) v});
        } catch (UnknownHostException e) {
            throw new IllegalStateException(e);
        }
    }
}
