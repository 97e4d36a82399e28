package io.charybdis.cluster.metadata;

import io.charybdis.cluster.locator.Endpoint;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * One member of the cluster as the metadata log records it: identity, addresses, placement, shard count, the vnode
 * tokens it owns and where it stands in a topology change ({@link Status}).
 */
public record NodeRecord(UUID hostId, InetAddress address, int storagePort, InetAddress rpcAddress, int nativePort,
                         String datacenter,
                         String rack, int shards, String releaseVersion, List<Long> tokens, Status status) {
    /**
     * A member's place in a topology change, as Cassandra names them. JOINING: its tokens are pending (it receives
     * writes for them, reads stay on the old owners) while it streams its ranges; NORMAL: it owns its tokens;
     * LEAVING: it still owns its tokens while they stream to their next owners, who receive writes for them.
     * A member that has left is no longer in the log.
     */
    public enum Status {
        JOINING, NORMAL, LEAVING;

        static Status ofCode(int code) {
            Status[] all = values();
            if (code < 0 || code >= all.length) {
                throw new IllegalArgumentException("unknown member status code=" + code);
            }
            return all[code];
        }
    }

    public NodeRecord {
        tokens = List.copyOf(tokens);
        java.util.Objects.requireNonNull(status, "status");
    }

    /** A NORMAL member. */
    public NodeRecord(UUID hostId, InetAddress address, int storagePort, InetAddress rpcAddress, int nativePort,
                      String datacenter, String rack, int shards, String releaseVersion, List<Long> tokens) {
        this(hostId, address, storagePort, rpcAddress, nativePort, datacenter, rack, shards, releaseVersion, tokens,
                Status.NORMAL);
    }

    public NodeRecord withStatus(Status s) {
        return new NodeRecord(hostId, address, storagePort, rpcAddress, nativePort, datacenter, rack, shards,
                releaseVersion, tokens, s);
    }

    public Endpoint endpoint() {
        return new Endpoint(hostId, address, storagePort, datacenter, rack, shards);
    }

    void write(DataOutputStream out) throws IOException {
        out.writeLong(hostId.getMostSignificantBits());
        out.writeLong(hostId.getLeastSignificantBits());
        byte[] a = address.getAddress();
        out.writeByte(a.length);
        out.write(a);
        out.writeInt(storagePort);
        byte[] r = rpcAddress.getAddress();
        out.writeByte(r.length);
        out.write(r);
        out.writeInt(nativePort);
        out.writeUTF(datacenter);
        out.writeUTF(rack);
        out.writeInt(shards);
        out.writeUTF(releaseVersion);
        out.writeInt(tokens.size());
        for (long t : tokens) {
            out.writeLong(t);
        }
    }

    static NodeRecord read(DataInputStream in) throws IOException {
        UUID id = new UUID(in.readLong(), in.readLong());
        byte[] a = new byte[in.readUnsignedByte()];
        in.readFully(a);
        int storagePort = in.readInt();
        byte[] r = new byte[in.readUnsignedByte()];
        in.readFully(r);
        int nativePort = in.readInt();
        String dc = in.readUTF();
        String rack = in.readUTF();
        int shards = in.readInt();
        String release = in.readUTF();
        int n = in.readInt();
        List<Long> tokens = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            tokens.add(in.readLong());
        }
        return new NodeRecord(id, InetAddress.getByAddress(a), storagePort, InetAddress.getByAddress(r), nativePort, dc, rack,
                shards, release, tokens);
    }
}
