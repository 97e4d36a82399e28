package io.charybdis.node.cluster;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.config.DefaultDriverOption;
import com.datastax.oss.driver.api.core.config.DriverConfigLoader;
import io.charybdis.cluster.messaging.FaultInjector;
import io.charybdis.node.CharybdisNode;
import io.charybdis.node.config.NodeConfig;
import io.charybdis.storage.TableId;
import io.charybdis.storage.mutation.DecoratedKey;
import io.charybdis.storage.mutation.Mutation;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

/** Nodes of one cluster in this JVM on 127.0.0.i with free ports, and what tests read of their storage. */
final class ClusterNodes implements AutoCloseable {
    final Path dir;
    final FaultInjector faults;
    final List<CharybdisNode> nodes = new ArrayList<>();
    final int[] storagePorts = new int[8];
    final int[] metadataPorts = new int[8];
    final int[] nativePorts = new int[8];
    String seeds;

    /** Hinted handoff on the nodes started from now on (a test of divergence turns it off). */
    boolean hintedHandoff = true;

    /** More settings for the nodes started from now on (authentication, for one). */
    java.util.function.UnaryOperator<NodeConfig.Builder> configure = b -> b;

    ClusterNodes(Path dir, FaultInjector faults) throws Exception {
        this.dir = dir;
        this.faults = faults;
        for (int i = 1; i < 8; i++) {
            storagePorts[i] = freePort(host(i));
            metadataPorts[i] = freePort(host(i));
            nativePorts[i] = freePort(host(i));
        }
        seeds = host(1) + ":" + storagePorts[1] + "," + host(2) + ":" + storagePorts[2];
    }

    static String host(int i) {
        return "127.0.0." + i;
    }

    static int freePort(String host) throws Exception {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getByName(host))) {
            return s.getLocalPort();
        }
    }

    CharybdisNode start(int i) throws Exception {
        Path base = dir.resolve("n" + i);
        Files.createDirectories(base);
        NodeConfig config = configure.apply(NodeConfig.builder().baseDirectory(base).listenAddress(host(i))
                .rpcAddress(host(i)).nativeTransportPort(nativePorts[i]).nativeShardAwareTransportPort(0).jmxPort(0)
                .smp(2).numTokens(8).storagePort(storagePorts[i]).metadataPort(metadataPorts[i])
                .seeds(List.of(seeds.split(","))).hintedHandoffEnabled(hintedHandoff)).build();
        CharybdisNode n = CharybdisNode.start(config, faults);
        nodes.add(n);
        return n;
    }

    InetSocketAddress storageAddress(int i) {
        return new InetSocketAddress(host(i), storagePorts[i]);
    }

    static CqlSession session(CharybdisNode n) {
        return CqlSession.builder().addContactPoint(new InetSocketAddress(n.info().rpcAddress(), n.nativePort()))
                .withLocalDatacenter("datacenter1")
                .withConfigLoader(DriverConfigLoader.programmaticBuilder()
                        .withDuration(DefaultDriverOption.REQUEST_TIMEOUT, Duration.ofSeconds(20))
                        .withDuration(DefaultDriverOption.CONNECTION_INIT_QUERY_TIMEOUT, Duration.ofSeconds(10))
                        .withDuration(DefaultDriverOption.CONTROL_CONNECTION_TIMEOUT, Duration.ofSeconds(10))
                        .withDuration(DefaultDriverOption.METADATA_SCHEMA_REQUEST_TIMEOUT, Duration.ofSeconds(10))
                        .withDuration(DefaultDriverOption.CONTROL_CONNECTION_AGREEMENT_TIMEOUT, Duration.ofSeconds(20))
                        .build())
                .build();
    }

    static TableId table(CharybdisNode n, String keyspace, String table) {
        return new TableId(n.schemas().schema().keyspace(keyspace).tables().get(table).id());
    }

    /** Every partition the node's storage holds of the table, whole, keyed by position. */
    static TreeMap<DecoratedKey, Mutation> contents(CharybdisNode n, TableId table) throws Exception {
        TreeMap<DecoratedKey, Mutation> out = new TreeMap<>();
        for (int shard = 0; shard < n.storage().shardCount(); shard++) {
            DecoratedKey after = null;
            while (true) {
                List<Mutation> page = n.storage().readRawRange(table, shard, Long.MIN_VALUE, after, Long.MAX_VALUE, 64)
                        .get(30, TimeUnit.SECONDS);
                for (Mutation m : page) {
                    out.put(new DecoratedKey(m.token(), m.partitionKey()), m);
                }
                if (page.size() < 64) {
                    break;
                }
                Mutation last = page.get(page.size() - 1);
                after = new DecoratedKey(last.token(), last.partitionKey());
            }
        }
        return out;
    }

    @Override
    public void close() {
        for (int i = nodes.size() - 1; i >= 0; i--) {
            nodes.get(i).close();
        }
    }
}
