package io.charybdis.node.jmx;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import javax.management.Notification;
import javax.management.NotificationBroadcasterSupport;

/**
 * The repairs nodetool starts with {@code StorageService.repairAsync}: each gets a command number, runs on a thread
 * of its own (one at a time), and reports as Cassandra does — JMX notifications of type {@code progress} from source
 * {@code repair:N} whose user data is {@code {type, progressCount, total}} (ProgressEventType ordinals: START 0,
 * PROGRESS 1, ERROR 2, SUCCESS 4, COMPLETE 5), and the status list {@code getParentRepairStatus(N)} answers
 * (IN_PROGRESS, COMPLETED or FAILED, then the messages).
 */
final class RepairJobs {
    private static final int START = 0;
    private static final int PROGRESS = 1;
    private static final int ERROR = 2;
    private static final int SUCCESS = 4;
    private static final int COMPLETE = 5;

    private final NotificationBroadcasterSupport emitter;
    private final AtomicInteger commands = new AtomicInteger();
    private final AtomicLong sequence = new AtomicLong();
    private final ConcurrentHashMap<Integer, List<String>> statuses = new ConcurrentHashMap<>();
    private final ExecutorService runner = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "repair-runner");
        t.setDaemon(true);
        return t;
    });

    RepairJobs(NotificationBroadcasterSupport emitter) {
        this.emitter = emitter;
    }

    /** Starts a repair of {@code keyspace}; returns its command number (0: nothing to repair). */
    int start(ClusterOps cluster, String keyspace, Map<String, String> options, boolean replicated) {
        if (Boolean.parseBoolean(options.getOrDefault("incremental", "false"))) {
            throw new UnsupportedOperationException("Charybdis does not build incremental repair yet: run a full "
                    + "repair (nodetool repair --full)");
        }
        String preview = options.getOrDefault("previewKind", "NONE");
        if (!preview.equals("NONE")) {
            throw new UnsupportedOperationException("Charybdis does not build preview repair yet (previewKind="
                    + preview + ")");
        }
        if (Boolean.parseBoolean(options.getOrDefault("paxosOnly", "false"))) {
            throw new UnsupportedOperationException("Charybdis does not build Paxos repair yet");
        }
        if (cluster == null || !replicated) {
            return 0; // nodetool prints "Replication factor is 1. No repair is needed for keyspace"
        }
        boolean primary = Boolean.parseBoolean(options.getOrDefault("primaryRange", "false"));
        String cfs = options.getOrDefault("columnFamilies", "");
        List<String> tables = cfs.isBlank() ? List.of() : Arrays.stream(cfs.split(",")).map(String::trim)
                .filter(s -> !s.isEmpty()).toList();
        int cmd = commands.incrementAndGet();
        List<String> status = java.util.Collections.synchronizedList(new ArrayList<>());
        status.add("IN_PROGRESS");
        statuses.put(cmd, status);
        UUID session = UUID.randomUUID();
        runner.execute(() -> {
            long started = System.currentTimeMillis();
            int[] step = {0};
            notify(cmd, START, 0, 100, "Starting repair command #" + cmd + " (" + session + "), repairing keyspace "
                    + keyspace + " with repair options (parallelism: parallel, primary range: " + primary
                    + ", incremental: false, job threads: 1, ColumnFamilies: " + tables + ", dataCenters: [], hosts: [],"
                    + " previewKind: NONE, # of ranges: all this node replicates, pull repair: false, force repair: "
                    + "false, optimise streams: false, ignore unreplicated keyspaces: false, repairPaxos: false, "
                    + "paxosOnly: false)");
            try {
                cluster.repair(keyspace, tables, primary, message -> {
                    status.add(message);
                    notify(cmd, PROGRESS, ++step[0], step[0] + 1, message);
                });
                notify(cmd, SUCCESS, step[0], step[0], "Repair completed successfully");
                status.set(0, "COMPLETED");
            } catch (RuntimeException | Error e) {
                String message = "Repair command #" + cmd + " failed with error " + e.getMessage();
                status.add(message);
                status.set(0, "FAILED");
                notify(cmd, ERROR, step[0], step[0], message);
            }
            notify(cmd, COMPLETE, step[0], step[0], "Repair command #" + cmd + " finished in "
                    + Math.max(0, (System.currentTimeMillis() - started) / 1000) + " seconds");
        });
        return cmd;
    }

    /** IN_PROGRESS, COMPLETED or FAILED, then the messages; null for an unknown command. */
    List<String> status(int cmd) {
        List<String> s = statuses.get(cmd);
        if (s == null) {
            return null;
        }
        synchronized (s) {
            return new ArrayList<>(s);
        }
    }

    private void notify(int cmd, int type, int count, int total, String message) {
        Notification n = new Notification("progress", "repair:" + cmd, sequence.incrementAndGet(),
                System.currentTimeMillis(), message);
        Map<String, Integer> data = new HashMap<>();
        data.put("type", type);
        data.put("progressCount", count);
        data.put("total", Math.max(total, count));
        n.setUserData(data);
        emitter.sendNotification(n);
    }

    void close() {
        runner.shutdownNow();
    }
}
