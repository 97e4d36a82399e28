package io.charybdis.cluster.metadata;

import io.charybdis.cluster.ClusterMetadata;
import io.charybdis.cluster.locator.Endpoint;
import io.charybdis.cluster.locator.TokenRing;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * The cluster's metadata after applying the log up to {@link #epoch}: its members and their tokens, and the schema
 * (opaque here: the node's serialized user schema, with a version and the change events of its last change).
 * Immutable;
 * every node derives the same state from the same log, so two nodes of one epoch never disagree on who owns a
 * range. Commands are applied deterministically: a command that would break an invariant (a token owned twice) is
 * rejected identically everywhere and leaves the state unchanged.
 */
public record MetadataState(long epoch, Map<UUID, NodeRecord> members, Schema schema) {
    public static final MetadataState EMPTY = new MetadataState(0, Map.of(), Schema.NONE);

    /** The schema as of an epoch: the version it replaced a schema of, its bytes, and what its change was. */
    public record Schema(UUID version, byte[] document, List<String> events) {
        public static final Schema NONE = new Schema(new UUID(0, 0), new byte[0], List.of());

        public Schema {
            events = List.copyOf(events);
        }
    }

    public MetadataState {
        members = Collections.unmodifiableMap(new LinkedHashMap<>(members));
    }

    MetadataState(long epoch, Map<UUID, NodeRecord> members) {
        this(epoch, members, Schema.NONE);
    }

    /** Command kinds in the log. */
    static final byte JOIN = 1;
    static final byte LEAVE = 2;
    static final byte SCHEMA = 3;
    static final String SCHEMA_CONFLICT = "schema changed concurrently";
    static final byte BARRIER = 4;
    /** A member joins in a given status (JOINING for a bootstrap): status code, then the record. */
    static final byte JOIN_AS = 5;
    /** A member's status changes (JOINING to NORMAL, NORMAL to LEAVING): host id, status code. */
    static final byte SET_STATUS = 6;

    /** An entry that changes nothing: applying it proves every entry before it is applied. */
    static byte[] barrier() {
        return new byte[] {BARRIER};
    }

    /**
     * A schema change: applied only if the schema is still at {@code base} (so two concurrent changes computed from
     * the same schema cannot both win: the loser recomputes against the new one).
     */
    static byte[] schema(UUID base, UUID version, byte[] document, List<String> events) {
        return encode(SCHEMA, out -> {
            out.writeLong(base.getMostSignificantBits());
            out.writeLong(base.getLeastSignificantBits());
            out.writeLong(version.getMostSignificantBits());
            out.writeLong(version.getLeastSignificantBits());
            out.writeInt(document.length);
            out.write(document);
            out.writeInt(events.size());
            for (String e : events) {
                out.writeUTF(e);
            }
        });
    }

    static byte[] join(NodeRecord r) {
        if (r.status() != NodeRecord.Status.NORMAL) {
            return encode(JOIN_AS, out -> {
                out.writeByte(r.status().ordinal());
                r.write(out);
            });
        }
        return encode(JOIN, out -> r.write(out));
    }

    static byte[] setStatus(UUID hostId, NodeRecord.Status status) {
        return encode(SET_STATUS, out -> {
            out.writeLong(hostId.getMostSignificantBits());
            out.writeLong(hostId.getLeastSignificantBits());
            out.writeByte(status.ordinal());
        });
    }

    static byte[] leave(UUID hostId) {
        return encode(LEAVE, out -> {
            out.writeLong(hostId.getMostSignificantBits());
            out.writeLong(hostId.getLeastSignificantBits());
        });
    }

    private interface Body {
        void write(DataOutputStream out) throws IOException;
    }

    private static byte[] encode(byte kind, Body body) {
        try {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            DataOutputStream out = new DataOutputStream(bytes);
            out.writeByte(kind);
            body.write(out);
            out.flush();
            return bytes.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The outcome of one command: the next state and null, or this state and why the command was refused. */
    record Applied(MetadataState state, String rejection) {
    }

    Applied apply(long index, byte[] command) {
        try {
            DataInputStream in = new DataInputStream(new ByteArrayInputStream(command));
            byte kind = in.readByte();
            switch (kind) {
                case JOIN, JOIN_AS -> {
                    NodeRecord.Status status = kind == JOIN_AS ? NodeRecord.Status.ofCode(in.readUnsignedByte())
                            : NodeRecord.Status.NORMAL;
                    NodeRecord r = NodeRecord.read(in).withStatus(status);
                    Map<Long, UUID> owners = new HashMap<>();
                    for (NodeRecord m : members.values()) {
                        if (!m.hostId().equals(r.hostId())) {
                            m.tokens().forEach(t -> owners.put(t, m.hostId()));
                        }
                    }
                    for (long t : r.tokens()) {
                        if (owners.containsKey(t)) {
                            return new Applied(new MetadataState(index, members, schema), "token " + t + " is owned by host "
                                    + owners.get(t));
                        }
                    }
                    Map<UUID, NodeRecord> next = new LinkedHashMap<>(members);
                    next.put(r.hostId(), r);
                    return new Applied(new MetadataState(index, next, schema), null);
                }
                case SCHEMA -> {
                    UUID base = new UUID(in.readLong(), in.readLong());
                    UUID version = new UUID(in.readLong(), in.readLong());
                    byte[] doc = new byte[in.readInt()];
                    in.readFully(doc);
                    int n = in.readInt();
                    List<String> events = new java.util.ArrayList<>(n);
                    for (int i = 0; i < n; i++) {
                        events.add(in.readUTF());
                    }
                    if (!base.equals(schema.version())) {
                        return new Applied(new MetadataState(index, members, schema), SCHEMA_CONFLICT + ": based on "
                                + base + ", the schema is at " + schema.version());
                    }
                    return new Applied(new MetadataState(index, members, new Schema(version, doc, events)), null);
                }
                case SET_STATUS -> {
                    UUID id = new UUID(in.readLong(), in.readLong());
                    NodeRecord.Status status = NodeRecord.Status.ofCode(in.readUnsignedByte());
                    NodeRecord r = members.get(id);
                    if (r == null) {
                        return new Applied(new MetadataState(index, members, schema), "no member with host id " + id);
                    }
                    Map<UUID, NodeRecord> next = new LinkedHashMap<>(members);
                    next.put(id, r.withStatus(status));
                    return new Applied(new MetadataState(index, next, schema), null);
                }
                case BARRIER -> {
                    return new Applied(new MetadataState(index, members, schema), null);
                }
                case LEAVE -> {
                    UUID id = new UUID(in.readLong(), in.readLong());
                    Map<UUID, NodeRecord> next = new LinkedHashMap<>(members);
                    if (next.remove(id) == null) {
                        return new Applied(new MetadataState(index, members, schema), "no member with host id " + id);
                    }
                    return new Applied(new MetadataState(index, next, schema), null);
                }
                default -> {
                    return new Applied(new MetadataState(index, members, schema), "unknown metadata command kind=" + kind);
                }
            }
        } catch (IOException e) {
            return new Applied(new MetadataState(index, members, schema), "malformed metadata command: " + e);
        }
    }

    /**
     * What the coordinator routes by, seen from member {@code self}; null while {@code self} is not a member or is
     * still JOINING. The ring is that of the owners (NORMAL and LEAVING members); while members join or leave, the
     * pending ring is the one they are moving to (JOINING members in, LEAVING ones out), whose extra replicas
     * receive writes too.
     */
    public ClusterMetadata clusterMetadata(UUID self) {
        NodeRecord me = members.get(self);
        if (me == null || me.tokens().isEmpty() || me.status() == NodeRecord.Status.JOINING) {
            return null;
        }
        return new ClusterMetadata(epoch, ring(), me.endpoint(), pendingRing());
    }

    /** The ring of the owners of the tokens: NORMAL and LEAVING members; null if none. */
    public TokenRing ring() {
        Map<Endpoint, List<Long>> tokens = new LinkedHashMap<>();
        for (NodeRecord r : members.values()) {
            if (!r.tokens().isEmpty() && r.status() != NodeRecord.Status.JOINING) {
                tokens.put(r.endpoint(), r.tokens());
            }
        }
        return tokens.isEmpty() ? null : TokenRing.of(tokens);
    }

    /** The ring once the joins and leaves under way are done; null when none is (or nobody would be left). */
    public TokenRing pendingRing() {
        boolean moving = false;
        Map<Endpoint, List<Long>> tokens = new LinkedHashMap<>();
        for (NodeRecord r : members.values()) {
            moving |= r.status() != NodeRecord.Status.NORMAL;
            if (!r.tokens().isEmpty() && r.status() != NodeRecord.Status.LEAVING) {
                tokens.put(r.endpoint(), r.tokens());
            }
        }
        return moving && !tokens.isEmpty() ? TokenRing.of(tokens) : null;
    }

    byte[] snapshot() {
        return encode((byte) 0, out -> {
            out.writeLong(epoch);
            out.writeInt(members.size());
            for (NodeRecord r : members.values()) {
                r.write(out);
                out.writeByte(r.status().ordinal());
            }
            out.writeLong(schema.version().getMostSignificantBits());
            out.writeLong(schema.version().getLeastSignificantBits());
            out.writeInt(schema.document().length);
            out.write(schema.document());
            out.writeInt(schema.events().size());
            for (String e : schema.events()) {
                out.writeUTF(e);
            }
        });
    }

    static MetadataState fromSnapshot(byte[] bytes) throws IOException {
        DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes));
        in.readByte();
        long epoch = in.readLong();
        int n = in.readInt();
        Map<UUID, NodeRecord> m = new LinkedHashMap<>();
        for (int i = 0; i < n; i++) {
            NodeRecord r = NodeRecord.read(in);
            r = r.withStatus(NodeRecord.Status.ofCode(in.readUnsignedByte()));
            m.put(r.hostId(), r);
        }
        UUID version = new UUID(in.readLong(), in.readLong());
        byte[] doc = new byte[in.readInt()];
        in.readFully(doc);
        int k = in.readInt();
        List<String> events = new java.util.ArrayList<>(k);
        for (int i = 0; i < k; i++) {
            events.add(in.readUTF());
        }
        return new MetadataState(epoch, m, new Schema(version, doc, events));
    }
}
