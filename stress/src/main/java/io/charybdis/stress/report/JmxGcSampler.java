package io.charybdis.stress.report;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import javax.management.MBeanServerConnection;
import javax.management.ObjectName;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXServiceURL;

/**
 * Reads the cluster's GC activity the way cassandra-stress does: {@code getAndResetStats()} of the
 * {@code org.apache.cassandra.service:type=GCInspector} MBean on each node's JMX port, which returns
 * {@code [interval ms, max pause ms, total pause ms, sum of squared pauses, bytes reclaimed, count, ...]}.
 * Nodes that cannot be reached are skipped (their columns stay 0).
 */
public final class JmxGcSampler implements AutoCloseable {

    private static final String GC_INSPECTOR = "org.apache.cassandra.service:type=GCInspector";

    private final List<JMXConnector> connectors = new ArrayList<>();
    private final List<MBeanServerConnection> connections = new ArrayList<>();
    private final ObjectName name;

    private JmxGcSampler(ObjectName name) {
        this.name = name;
    }

    /** Connects to every node it can; returns a sampler that may have no connection at all. */
    public static JmxGcSampler connect(List<String> hosts, int port, String user, String password) {
        try {
            JmxGcSampler s = new JmxGcSampler(new ObjectName(GC_INSPECTOR));
            for (String host : hosts) {
                try {
                    JMXServiceURL url = new JMXServiceURL("service:jmx:rmi:///jndi/rmi://" + host + ":" + port + "/jmxrmi");
                    Map<String, Object> env = new HashMap<>();
                    if (user != null) {
                        env.put(JMXConnector.CREDENTIALS, new String[] {user, password});
                    }
                    env.put("jmx.remote.x.request.waiting.timeout", 2000L);
                    JMXConnector c = JMXConnectorFactory.connect(url, env);
                    MBeanServerConnection conn = c.getMBeanServerConnection();
                    conn.invoke(s.name, "getAndResetStats", new Object[0], new String[0]);
                    s.connectors.add(c);
                    s.connections.add(conn);
                } catch (Exception | LinkageError e) {
                    // not reachable or not a Cassandra-compatible MBean: no GC columns for this node
                }
            }
            return s;
        } catch (Exception e) {
            return new JmxGcSampler(null);
        }
    }

    public boolean connected() {
        return !connections.isEmpty();
    }

    /** The GC activity since the previous call, summed over the nodes. */
    public GcStats sample() {
        GcStats total = GcStats.NONE;
        for (MBeanServerConnection c : connections) {
            try {
                double[] r = (double[]) c.invoke(name, "getAndResetStats", new Object[0], new String[0]);
                total = total.plus(new GcStats((long) r[5], r[1], r[2], r[3], r[4]));
            } catch (Exception e) {
                // a node that went away: skip it this interval
            }
        }
        return total;
    }

    @Override
    public void close() {
        for (JMXConnector c : connectors) {
            try {
                c.close();
            } catch (Exception e) {
                // closing anyway
            }
        }
    }
}
