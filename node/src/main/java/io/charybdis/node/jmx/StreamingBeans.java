package io.charybdis.node.jmx;

import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import javax.management.openmbean.ArrayType;
import javax.management.openmbean.CompositeData;
import javax.management.openmbean.CompositeDataSupport;
import javax.management.openmbean.CompositeType;
import javax.management.openmbean.OpenDataException;
import javax.management.openmbean.OpenType;
import javax.management.openmbean.SimpleType;

/**
 * nodetool netstats' beans: internode traffic per peer and pool (MessagingService) and the streams under way
 * (StreamManager), as Cassandra's open types describe them (StreamState, SessionInfo, StreamSummary,
 * ProgressInfo: the item names and types nodetool reads back).
 *
 * <p>A Charybdis transfer pulls pages until the source has no more, so its size is not known ahead: a stream shows
 * what it has received so far as both done and total. Each transfer is one session of its own plan.
 */
final class StreamingBeans {
    private StreamingBeans() {
    }

    static final class MessagingService implements MessagingServiceMBean {
        private static final int GOSSIP = 0;
        private static final int LARGE = 1;
        private static final int SMALL = 2;
        private final NodeView node;

        MessagingService(NodeView node) {
            this.node = node;
        }

        private Map<String, Integer> pending(int pool) {
            Map<String, Integer> out = new LinkedHashMap<>();
            if (node.cluster != null) {
                node.cluster.traffic().forEach((peer, v) -> out.put(peer, (int) v[pool][0]));
            }
            return out;
        }

        private Map<String, Long> counter(int pool, int which) {
            Map<String, Long> out = new LinkedHashMap<>();
            if (node.cluster != null) {
                node.cluster.traffic().forEach((peer, v) -> out.put(peer, v[pool][which]));
            }
            return out;
        }

        @Override
        public Map<String, Integer> getLargeMessagePendingTasksWithPort() {
            return pending(LARGE);
        }

        @Override
        public Map<String, Long> getLargeMessageCompletedTasksWithPort() {
            return counter(LARGE, 1);
        }

        @Override
        public Map<String, Long> getLargeMessageDroppedTasksWithPort() {
            return counter(LARGE, 2);
        }

        @Override
        public Map<String, Integer> getSmallMessagePendingTasksWithPort() {
            return pending(SMALL);
        }

        @Override
        public Map<String, Long> getSmallMessageCompletedTasksWithPort() {
            return counter(SMALL, 1);
        }

        @Override
        public Map<String, Long> getSmallMessageDroppedTasksWithPort() {
            return counter(SMALL, 2);
        }

        @Override
        public Map<String, Integer> getGossipMessagePendingTasksWithPort() {
            return pending(GOSSIP);
        }

        @Override
        public Map<String, Long> getGossipMessageCompletedTasksWithPort() {
            return counter(GOSSIP, 1);
        }

        @Override
        public Map<String, Long> getGossipMessageDroppedTasksWithPort() {
            return counter(GOSSIP, 2);
        }

        /** Requests sent to other nodes that failed or timed out, by our internode verb; none on a node alone. */
        @Override
        public Map<String, Integer> getDroppedMessages() {
            Map<String, Integer> out = new LinkedHashMap<>();
            if (node.cluster != null) {
                node.cluster.failedRequestsByVerb().forEach((verb, n) -> out.put(verb, (int) Math.min(Integer.MAX_VALUE, n)));
            }
            return out;
        }
    }

    static final class StreamManager implements StreamManagerMBean {
        private static final CompositeType SUMMARY;
        private static final CompositeType PROGRESS;
        private static final CompositeType SESSION;
        private static final CompositeType STATE;

        static {
            try {
                SUMMARY = type("StreamSummary", new String[] {"tableId", "files", "totalSize"},
                        new OpenType<?>[] {SimpleType.STRING, SimpleType.INTEGER, SimpleType.LONG});
                PROGRESS = type("ProgressInfo", new String[] {"planId", "peer", "peer storage port", "sessionIndex",
                        "fileName", "direction", "currentBytes", "totalBytes"}, new OpenType<?>[] {SimpleType.STRING,
                        SimpleType.STRING, SimpleType.INTEGER, SimpleType.INTEGER, SimpleType.STRING, SimpleType.STRING,
                        SimpleType.LONG, SimpleType.LONG});
                SESSION = type("SessionInfo", new String[] {"planId", "peer", "peer_port", "connecting",
                        "connecting_port", "receivingSummaries", "sendingSummaries", "state", "receivingFiles",
                        "sendingFiles", "sessionIndex"}, new OpenType<?>[] {SimpleType.STRING, SimpleType.STRING,
                        SimpleType.INTEGER, SimpleType.STRING, SimpleType.INTEGER, ArrayType.getArrayType(SUMMARY),
                        ArrayType.getArrayType(SUMMARY), SimpleType.STRING, ArrayType.getArrayType(PROGRESS),
                        ArrayType.getArrayType(PROGRESS), SimpleType.INTEGER});
                STATE = type("StreamState", new String[] {"planId", "description", "sessions", "currentRxBytes",
                        "totalRxBytes", "rxPercentage", "currentTxBytes", "totalTxBytes", "txPercentage"},
                        new OpenType<?>[] {SimpleType.STRING, SimpleType.STRING, ArrayType.getArrayType(SESSION),
                        SimpleType.LONG, SimpleType.LONG, SimpleType.DOUBLE, SimpleType.LONG, SimpleType.LONG,
                        SimpleType.DOUBLE});
            } catch (OpenDataException e) {
                throw new ExceptionInInitializerError(e);
            }
        }

        private static CompositeType type(String name, String[] items, OpenType<?>[] types) throws OpenDataException {
            return new CompositeType(name, name, items, items, types);
        }

        private final NodeView node;

        StreamManager(NodeView node) {
            this.node = node;
        }

        @Override
        public Set<CompositeData> getCurrentStreams() {
            Set<CompositeData> out = new HashSet<>();
            if (node.cluster == null) {
                return out;
            }
            try {
                for (ClusterOps.Stream s : node.cluster.activeStreams()) {
                    out.add(state(s));
                }
            } catch (OpenDataException e) {
                throw new IllegalStateException(e);
            }
            return out;
        }

        private static CompositeData state(ClusterOps.Stream s) throws OpenDataException {
            String plan = s.plan().toString();
            CompositeData summary = new CompositeDataSupport(SUMMARY, new String[] {"tableId", "files", "totalSize"},
                    new Object[] {s.table(), (int) Math.min(Integer.MAX_VALUE, s.partitions()), s.bytes()});
            CompositeData progress = new CompositeDataSupport(PROGRESS, new String[] {"planId", "peer",
                    "peer storage port", "sessionIndex", "fileName", "direction", "currentBytes", "totalBytes"},
                    new Object[] {plan, s.peerAddress(), s.peerPort(), 0, s.table(), s.receiving() ? "IN" : "OUT",
                            s.bytes(), s.bytes()});
            CompositeData[] none = new CompositeData[0];
            CompositeData session = new CompositeDataSupport(SESSION, new String[] {"planId", "peer", "peer_port",
                    "connecting", "connecting_port", "receivingSummaries", "sendingSummaries", "state",
                    "receivingFiles", "sendingFiles", "sessionIndex"}, new Object[] {plan, s.peerAddress(),
                    s.peerPort(), s.peerAddress(), s.peerPort(), s.receiving() ? new CompositeData[] {summary} : none,
                    s.receiving() ? none : new CompositeData[] {summary}, "STREAMING",
                    s.receiving() ? new CompositeData[] {progress} : none,
                    s.receiving() ? none : new CompositeData[] {progress}, 0});
            long rx = s.receiving() ? s.bytes() : 0;
            long tx = s.receiving() ? 0 : s.bytes();
            return new CompositeDataSupport(STATE, new String[] {"planId", "description", "sessions",
                    "currentRxBytes", "totalRxBytes", "rxPercentage", "currentTxBytes", "totalTxBytes", "txPercentage"},
                    new Object[] {plan, s.description(), new CompositeData[] {session}, rx, rx, rx > 0 ? 100.0 : 0.0,
                            tx, tx, tx > 0 ? 100.0 : 0.0});
        }

        @Override
        public boolean getStreamingStatsEnabled() {
            return true;
        }

        @Override
        public void setStreamingStatsEnabled(boolean enabled) {
            if (!enabled) {
                throw new UnsupportedOperationException("Charybdis always keeps streaming statistics");
            }
        }

        @Override
        public String getStreamingSlowEventsLogTimeout() {
            return "10s";
        }

        @Override
        public void setStreamingSlowEventsLogTimeout(String timeout) {
            throw new UnsupportedOperationException("Charybdis does not log slow streaming events");
        }
    }
}
