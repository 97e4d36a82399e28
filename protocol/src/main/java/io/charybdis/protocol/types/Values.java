package io.charybdis.protocol.types;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/** Reading and writing the [int]-length-prefixed elements of collection, tuple and UDT values. */
final class Values {
    private Values() {
    }

    /** Reads an element count, checking it is plausible for the bytes left. */
    static int readCount(ByteBuffer in, String what) {
        if (in.remaining() < 4) {
            throw new MarshalException("Not enough bytes to read a " + what);
        }
        int n = in.getInt();
        if (n < 0) {
            throw new MarshalException("Invalid negative number of elements in " + what + ": " + n);
        }
        if (n > in.remaining() / 4 + 1 && n > in.remaining()) {
            throw new MarshalException("Not enough bytes to read " + n + " elements of a " + what);
        }
        return n;
    }

    /** Reads one [int]-prefixed element (a slice), null for a negative length. */
    static ByteBuffer readElement(ByteBuffer in, String what) {
        if (in.remaining() < 4) {
            throw new MarshalException("Not enough bytes to read a " + what);
        }
        int n = in.getInt();
        if (n < 0) {
            return null;
        }
        if (in.remaining() < n) {
            throw new MarshalException("Not enough bytes to read a " + what + ": need=" + n + " available="
                    + in.remaining());
        }
        ByteBuffer e = in.slice(in.position(), n);
        in.position(in.position() + n);
        return e;
    }

    static void expectEnd(ByteBuffer in, String what) {
        if (in.hasRemaining()) {
            throw new MarshalException("Unexpected extraneous bytes after " + what + " value");
        }
    }

    /**
     * Validates a count-prefixed collection value as Cassandra's serializers do: read and validate one element at a
     * time, failing with Cassandra's messages ({@code Not enough bytes to read a list}, {@code The data cannot be
     * deserialized as a set}, {@code Null value read when not allowed}, the element type's own message, {@code
     * Unexpected extraneous bytes after map value}). {@code types} holds one type per element of an entry (one for
     * lists and sets, key and value for maps).
     */
    static void validateCollection(ByteBuffer value, String what, DataType... types) {
        ByteBuffer in = value.duplicate();
        if (in.remaining() < 4) {
            throw new MarshalException("Not enough bytes to read a " + what);
        }
        int n = in.getInt();
        if (n < 0) {
            throw new MarshalException("The data cannot be deserialized as a " + what);
        }
        boolean nullElement = false;
        for (int i = 0; i < n; i++) {
            for (DataType t : types) {
                if (in.remaining() < 4) {
                    throw new MarshalException("Not enough bytes to read a " + what);
                }
                int size = in.getInt();
                if (size < 0 && types.length == 1 && what.equals("list")) {
                    // Cassandra reads a list's null element and fails later; we refuse it once the value is read
                    nullElement = true;
                    continue;
                }
                if (size < 0) {
                    throw new MarshalException("Null value read when not allowed");
                }
                if (in.remaining() < size) {
                    throw new MarshalException("Not enough bytes to read a " + what);
                }
                t.validate(in.slice(in.position(), size));
                in.position(in.position() + size);
            }
        }
        expectEnd(in, what);
        if (nullElement) {
            throw new MarshalException("null is not supported inside collections");
        }
    }

    /**
     * Validates a tuple or user type value as Cassandra does: trailing components may be missing, a negative size
     * is a null component, and each component is checked by its type as it is read.
     */
    static void validateComponents(ByteBuffer value, List<DataType> types, String what) {
        ByteBuffer in = value.duplicate();
        for (int i = 0; i < types.size(); i++) {
            if (!in.hasRemaining()) {
                return;
            }
            if (in.remaining() < 4) {
                throw new MarshalException("Not enough bytes to read size of " + i + "th component");
            }
            int size = in.getInt();
            if (size < 0) {
                continue;
            }
            if (in.remaining() < size) {
                throw new MarshalException("Not enough bytes to read " + i + "th component");
            }
            types.get(i).validate(in.slice(in.position(), size));
            in.position(in.position() + size);
        }
        if (in.hasRemaining()) {
            throw new MarshalException("Invalid remaining data after end of " + what + " value");
        }
    }

    /** Serialized elements of a count-prefixed value (list, set, map: keys and values alternate). */
    static List<ByteBuffer> readAll(ByteBuffer value, int perEntry, String what) {
        ByteBuffer in = value.duplicate();
        int n = readCount(in, what);
        List<ByteBuffer> out = new ArrayList<>(Math.min(n * perEntry, 1024));
        for (int i = 0; i < n * perEntry; i++) {
            ByteBuffer e = readElement(in, what);
            if (e == null) {
                throw new MarshalException("null is not supported inside collections");
            }
            out.add(e);
        }
        expectEnd(in, what);
        return out;
    }

    /** Components of a tuple or UDT value (null for null components). */
    static List<ByteBuffer> readComponents(ByteBuffer value, int max, String what) {
        ByteBuffer in = value.duplicate();
        List<ByteBuffer> out = new ArrayList<>(max);
        while (in.hasRemaining()) {
            if (out.size() == max) {
                throw new MarshalException("Invalid remaining data after end of " + what + " value");
            }
            out.add(readElement(in, what + " component"));
        }
        return out;
    }

    static ByteBuffer pack(List<ByteBuffer> elements, int count, boolean withCount) {
        int size = withCount ? 4 : 0;
        for (ByteBuffer e : elements) {
            size += 4 + (e == null ? 0 : e.remaining());
        }
        ByteBuffer out = ByteBuffer.allocate(size);
        if (withCount) {
            out.putInt(count);
        }
        for (ByteBuffer e : elements) {
            if (e == null) {
                out.putInt(-1);
            } else {
                out.putInt(e.remaining());
                out.put(e.duplicate());
            }
        }
        return out.flip();
    }

    static int compareNullable(DataType t, ByteBuffer a, ByteBuffer b) {
        if (a == null || b == null) {
            return a == null ? (b == null ? 0 : -1) : 1;
        }
        return t.compare(a, b);
    }

    static boolean isEmpty(ByteBuffer b) {
        return !b.hasRemaining();
    }

    static int compareEmpty(ByteBuffer a, ByteBuffer b) {
        return Boolean.compare(a.hasRemaining(), b.hasRemaining());
    }
}
