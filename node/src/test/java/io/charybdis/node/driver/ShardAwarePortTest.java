package io.charybdis.node.driver;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.DataInputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** ScyllaDB's shard-awareness extension: SUPPORTED advertises the shards, the shard-aware port routes by port. */
@Timeout(60)
class ShardAwarePortTest {
    static TestNode node;

    @BeforeAll
    static void start() throws Exception {
        node = new TestNode();
    }

    @AfterAll
    static void stop() throws Exception {
        node.close();
    }

    static Map<String, List<String>> options(int serverPort, int localPort) throws Exception {
        try (Socket s = new Socket()) {
            s.setReuseAddress(true);
            s.bind(new InetSocketAddress("127.0.0.1", localPort));
            s.connect(new InetSocketAddress("127.0.0.1", serverPort), 5000);
            s.setSoTimeout(10_000);
            OutputStream out = s.getOutputStream();
            out.write(new byte[]{4, 0, 0, 1, 0x05, 0, 0, 0, 0});
            out.flush();
            DataInputStream in = new DataInputStream(s.getInputStream());
            byte[] header = new byte[9];
            in.readFully(header);
            assertThat(header[4]).as("SUPPORTED").isEqualTo((byte) 0x06);
            int n = in.readShort();
            Map<String, List<String>> m = new HashMap<>();
            for (int i = 0; i < n; i++) {
                String key = readString(in);
                int values = in.readShort();
                List<String> list = new ArrayList<>();
                for (int j = 0; j < values; j++) {
                    list.add(readString(in));
                }
                m.put(key, list);
            }
            return m;
        }
    }

    private static String readString(DataInputStream in) throws Exception {
        byte[] b = new byte[in.readUnsignedShort()];
        in.readFully(b);
        return new String(b, StandardCharsets.UTF_8);
    }

    @Test
    void shouldAdvertiseShardingInSupported() throws Exception {
        Map<String, List<String>> m = options(node.node.nativePort(), 0);
        assertThat(m.get("SCYLLA_NR_SHARDS")).containsExactly("2");
        assertThat(m.get("SCYLLA_SHARDING_ALGORITHM")).containsExactly("biased-token-round-robin");
        assertThat(m.get("SCYLLA_SHARDING_IGNORE_MSB")).containsExactly("12");
        assertThat(m.get("SCYLLA_PARTITIONER")).containsExactly("org.apache.cassandra.dht.Murmur3Partitioner");
        assertThat(m.get("SCYLLA_SHARD_AWARE_PORT")).containsExactly(Integer.toString(node.node.shardAwarePort()));
        assertThat(m.get("PROTOCOL_VERSIONS")).contains("4/v4", "5/v5");
    }

    @Test
    void shouldRouteShardAwareConnectionsBySourcePort() throws Exception {
        for (int attempt = 0; attempt < 6; attempt++) {
            int local;
            try (java.net.ServerSocket probe = new java.net.ServerSocket(0)) {
                local = probe.getLocalPort();
            }
            Map<String, List<String>> m = options(node.node.shardAwarePort(), local);
            assertThat(m.get("SCYLLA_SHARD")).containsExactly(Integer.toString(local % 2));
        }
    }
}
