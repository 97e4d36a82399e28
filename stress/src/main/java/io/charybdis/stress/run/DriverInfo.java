package io.charybdis.stress.run;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.MavenCoordinates;
import com.datastax.oss.driver.api.core.metadata.Node;
import com.datastax.oss.driver.api.core.session.Session;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;

/**
 * Which Java driver the loader runs on (the Apache Cassandra driver, or ScyllaDB's shard-aware fork when
 * {@code bin/charybdis-stress} is started with {@code CHARYBDIS_STRESS_DRIVER=scylla}), and, with the fork, the
 * shards it found on each node. Both drivers share the {@code com.datastax.oss.driver} API; the fork's
 * {@code Node.getShardingInfo()} is looked up reflectively so that the loader compiles against either.
 */
final class DriverInfo {

    private DriverInfo() {
    }

    /** One line for the loader's preamble, e.g. {@code Driver: com.scylladb:java-driver-core 4.18.0.2; shard-aware: ...}. */
    static String describe(CqlSession session) {
        MavenCoordinates c = Session.OSS_DRIVER_COORDINATES;
        StringBuilder line = new StringBuilder("Driver: ").append(c.getGroupId()).append(':')
                .append(c.getArtifactId()).append(' ').append(c.getVersion());
        Method shardingInfo = shardingInfoMethod();
        if (shardingInfo == null) {
            return line.toString();
        }
        List<String> nodes = new ArrayList<>();
        for (Node n : session.getMetadata().getNodes().values()) {
            nodes.add(n.getEndPoint().resolve() + " " + shards(shardingInfo, n));
        }
        return line.append("; shard-aware: ").append(String.join(", ", nodes)).toString();
    }

    /** ScyllaDB's fork exposes {@code Node.getShardingInfo()}; the Apache driver does not. */
    private static Method shardingInfoMethod() {
        try {
            return Node.class.getMethod("getShardingInfo");
        } catch (NoSuchMethodException e) {
            return null;
        }
    }

    private static String shards(Method shardingInfo, Node n) {
        try {
            Object info = shardingInfo.invoke(n);
            if (info == null) {
                return "no sharding information (one connection pool for the whole node)";
            }
            Object count = shardingInfo.getReturnType().getMethod("getShardsCount").invoke(info);
            return count + " shards";
        } catch (ReflectiveOperationException e) {
            return "sharding information unreadable (" + e + ")";
        }
    }
}
