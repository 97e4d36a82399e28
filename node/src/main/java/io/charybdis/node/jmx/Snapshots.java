package io.charybdis.node.jmx;

import io.charybdis.node.schema.KeyspaceMetadata;
import io.charybdis.node.schema.TableMetadata;
import io.charybdis.storage.StorageException;
import io.charybdis.storage.TableId;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.stream.Stream;
import javax.management.openmbean.CompositeDataSupport;
import javax.management.openmbean.CompositeType;
import javax.management.openmbean.OpenDataException;
import javax.management.openmbean.OpenType;
import javax.management.openmbean.SimpleType;
import javax.management.openmbean.TabularData;
import javax.management.openmbean.TabularDataSupport;
import javax.management.openmbean.TabularType;

/**
 * Snapshots as nodetool's snapshot, listsnapshots and clearsnapshot see them: hard links of a table's SSTable files
 * under {@code <table directory>/snapshots/<tag>} (taken by the storage engine), listed in Cassandra's
 * {@code SnapshotDetails} tabular form. Each snapshot directory holds Cassandra's {@code manifest.json}: its
 * creation time and, for a snapshot taken with a TTL, its expiry, after which a background task deletes it (a
 * snapshot without a manifest counts as made when its directory was). A snapshot's "true size" is the bytes of its
 * files that no live SSTable shares any more.
 */
final class Snapshots {
    private static final String[] ITEMS = {"Snapshot name", "Keyspace name", "Column family name", "True size",
            "Size on disk", "Creation time", "Expiration time", "Ephemeral"};
    private static final CompositeType ROW;
    private static final TabularType TABLE;

    static {
        try {
            OpenType<?>[] types = new OpenType<?>[ITEMS.length];
            java.util.Arrays.fill(types, SimpleType.STRING);
            ROW = new CompositeType("SnapshotDetails", "SnapshotDetails", ITEMS, new String[] {"snapshot_name",
                    "keyspace_name", "columnfamily_name", "TrueDiskSpaceUsed", "TotalDiskSpaceUsed", "created_at",
                    "expires_at", "ephemeral"}, types);
            TABLE = new TabularType("SnapshotDetails", "SnapshotDetails", ROW, ITEMS);
        } catch (OpenDataException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** Cassandra's floor on a snapshot's TTL. */
    static final long MIN_TTL_SECONDS = 60;
    /** How often expired snapshots are looked for (Cassandra: every minute, first five seconds after start). */
    private static final long EXPIRY_PERIOD_SECONDS = 60;
    private static final String MANIFEST = "manifest.json";
    private static final com.fasterxml.jackson.databind.ObjectMapper JSON = new com.fasterxml.jackson.databind.ObjectMapper();
    private static final java.util.regex.Pattern DURATION = java.util.regex.Pattern.compile(
            "(\\d+)(d|h|s|ms|us|µs|ns|m)");

    private final NodeView node;
    /** Deletes snapshots whose TTL ran out; one daemon thread, off the data path. */
    private final java.util.concurrent.ScheduledExecutorService expiry;

    Snapshots(NodeView node) {
        this.node = node;
        this.expiry = java.util.concurrent.Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "charybdis-snapshot-expiry");
            t.setDaemon(true);
            return t;
        });
        expiry.scheduleWithFixedDelay(this::clearExpiredQuietly, 5, EXPIRY_PERIOD_SECONDS,
                java.util.concurrent.TimeUnit.SECONDS);
    }

    void close() {
        expiry.shutdownNow();
    }

    /**
     * A snapshot TTL as Cassandra reads it (its DurationSpec in seconds: a count and a unit of d, h, m or s), in
     * seconds; at least a minute.
     */
    static long ttlSeconds(String ttl) {
        java.util.regex.Matcher m = DURATION.matcher(ttl);
        if (!m.matches()) {
            throw new IllegalArgumentException("Invalid duration: " + ttl + " Accepted units:[NANOSECONDS, "
                    + "MICROSECONDS, MILLISECONDS, SECONDS, MINUTES, HOURS, DAYS] where case matters and only "
                    + "non-negative values.");
        }
        long n;
        try {
            n = Long.parseLong(m.group(1));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("Invalid duration: " + ttl + " Accepted units:[SECONDS, MINUTES, "
                    + "HOURS, DAYS]");
        }
        long seconds = switch (m.group(2)) {
            case "s" -> n;
            case "m" -> Math.multiplyExact(n, 60L);
            case "h" -> Math.multiplyExact(n, 3600L);
            case "d" -> Math.multiplyExact(n, 86_400L);
            default -> throw new IllegalArgumentException("Invalid duration: " + ttl + " Accepted units:[SECONDS, "
                    + "MINUTES, HOURS, DAYS]");
        };
        if (seconds < MIN_TTL_SECONDS) {
            throw new IllegalArgumentException("ttl for snapshot must be at least " + MIN_TTL_SECONDS + " seconds");
        }
        return seconds;
    }

    /** The stored tables an entity list names: "ks", "ks.table"; none: every keyspace. */
    private List<TableMetadata> tables(String... entities) {
        List<TableMetadata> r = new ArrayList<>();
        if (entities == null || entities.length == 0) {
            for (TableMetadata t : node.allTables()) {
                if (node.hasStorage(t)) {
                    r.add(t);
                }
            }
            return r;
        }
        for (String e : entities) {
            int dot = e.indexOf('.');
            List<TableMetadata> named = dot < 0 ? node.tables(e) : node.tables(e.substring(0, dot), e.substring(dot + 1));
            for (TableMetadata t : named) {
                if (node.hasStorage(t)) {
                    r.add(t);
                }
            }
        }
        return r;
    }

    /** The table's directory in each data directory (a snapshot has a part in each). */
    private List<Path> directories(TableMetadata t) {
        return node.storage.tableDirectories(new TableId(t.id()));
    }

    /** The table's data directories, none if it was dropped meanwhile. */
    private List<Path> directoriesIfPresent(TableMetadata t) {
        try {
            return directories(t);
        } catch (StorageException e) {
            return List.of();
        }
    }

    void take(String tag, Map<String, String> options, String... entities) throws IOException {
        if (tag == null || tag.isEmpty()) {
            throw new IOException("You must supply a snapshot name.");
        }
        Map<String, String> opts = options == null ? Map.of() : options;
        Long ttl = opts.get("ttl") != null ? ttlSeconds(opts.get("ttl")) : null;
        boolean flush = !Boolean.parseBoolean(opts.getOrDefault("skipFlush", "false"));
        List<TableMetadata> tables = tables(entities);
        for (TableMetadata t : tables) {
            for (Path dir : directories(t)) {
                if (Files.exists(dir.resolve("snapshots").resolve(tag))) {
                    throw new IOException("Snapshot " + tag + " already exists.");
                }
            }
        }
        List<CompletableFuture<?>> fs = new ArrayList<>();
        for (TableMetadata t : tables) {
            fs.add(node.storage.snapshot(new TableId(t.id()), tag, flush));
        }
        try {
            NodeView.await(CompletableFuture.allOf(fs.toArray(CompletableFuture[]::new)));
        } catch (ExecutionException | InterruptedException e) {
            throw new IOException("snapshot " + tag + " failed: " + e.getCause(), e);
        }
        Instant created = Instant.now().truncatedTo(ChronoUnit.MILLIS);
        Instant expires = ttl == null ? null : created.plusSeconds(ttl);
        for (TableMetadata t : tables) {
            for (Path dir : directories(t)) {
                writeManifest(dir.resolve("snapshots").resolve(tag), created, expires);
            }
        }
    }

    /**
     * Cassandra's {@code manifest.json} of a snapshot directory: the Data files it holds, when it was taken and when
     * it expires (null: never), and that it is not ephemeral.
     */
    private static void writeManifest(Path snapshot, Instant created, Instant expires) throws IOException {
        Files.createDirectories(snapshot);
        var root = JSON.createObjectNode();
        var files = root.putArray("files");
        for (Path f : list(snapshot)) {
            if (f.getFileName().toString().endsWith("-Data.db")) {
                files.add(f.getFileName().toString());
            }
        }
        root.put("created_at", created.toString());
        root.put("expires_at", expires == null ? null : expires.toString());
        root.put("ephemeral", false);
        Path tmp = snapshot.resolve(MANIFEST + ".tmp");
        Files.write(tmp, JSON.writerWithDefaultPrettyPrinter().writeValueAsBytes(root));
        Files.move(tmp, snapshot.resolve(MANIFEST), java.nio.file.StandardCopyOption.REPLACE_EXISTING,
                java.nio.file.StandardCopyOption.ATOMIC_MOVE);
    }

    /** A snapshot directory's {created, expires} from its manifest (either null when absent or unreadable). */
    private static Instant[] manifestTimes(Path snapshot) {
        Path m = snapshot.resolve(MANIFEST);
        if (!Files.isRegularFile(m)) {
            return new Instant[2];
        }
        try {
            var root = JSON.readTree(m.toFile());
            return new Instant[] {instant(root.get("created_at")), instant(root.get("expires_at"))};
        } catch (IOException | RuntimeException e) {
            return new Instant[2];
        }
    }

    private static Instant instant(com.fasterxml.jackson.databind.JsonNode n) {
        return n == null || n.isNull() ? null : Instant.parse(n.asText());
    }

    private void clearExpiredQuietly() {
        try {
            clearExpired(Instant.now());
        } catch (RuntimeException e) {
            org.slf4j.LoggerFactory.getLogger(Snapshots.class).warn("Could not clear expired snapshots", e);
        }
    }

    /** Deletes every snapshot whose TTL has run out by {@code now}, as Cassandra's snapshot manager does. */
    void clearExpired(Instant now) {
        for (TableMetadata t : tables()) {
            List<Path> dirs = directoriesIfPresent(t);
            for (Path dir : dirs) {
                for (Path snap : list(dir.resolve("snapshots"))) {
                    Instant expires = manifestTimes(snap)[1];
                    if (expires != null && !expires.isAfter(now)) {
                        try {
                            deleteTree(snap);
                            org.slf4j.LoggerFactory.getLogger(Snapshots.class).info(
                                    "Removed snapshot {} of {}.{}: its TTL expired at {}", snap.getFileName(),
                                    t.keyspace(), t.name(), expires);
                        } catch (IOException e) {
                            throw new UncheckedIOException(e);
                        }
                    }
                }
            }
        }
    }

    /** Deletes the snapshot {@code tag} (all snapshots when it is empty) of the keyspaces named (all when none). */
    void clear(Map<String, Object> options, String tag, String... keyspaces) throws IOException {
        Map<String, Object> opts = options == null ? Map.of() : options;
        Instant olderThan = null;
        if (opts.get("older_than") != null) {
            olderThan = Instant.now().minusSeconds(Long.parseLong(String.valueOf(opts.get("older_than"))));
        } else if (opts.get("older_than_timestamp") != null) {
            olderThan = Instant.parse(String.valueOf(opts.get("older_than_timestamp")));
        }
        for (TableMetadata t : tables(keyspaces)) {
            for (Path dir : directories(t)) {
                for (Path snap : list(dir.resolve("snapshots"))) {
                    if ((tag == null || tag.isEmpty() || snap.getFileName().toString().equals(tag))
                            && (olderThan == null || created(snap).isBefore(olderThan))) {
                        deleteTree(snap);
                    }
                }
            }
        }
    }

    Map<String, TabularData> details() {
        return details(Map.of());
    }

    /** Options as nodetool listsnapshots sends them: {@code no_ttl} leaves out the snapshots with a TTL. */
    Map<String, TabularData> details(Map<String, String> options) {
        boolean noTtl = options != null && Boolean.parseBoolean(options.getOrDefault("no_ttl", "false"));
        Map<String, TabularData> r = new TreeMap<>();
        for (TableMetadata t : tables()) {
            List<Path> dirs = directoriesIfPresent(t);
            // a snapshot's parts in each data directory, summed: tag -> {total, true size, created, expires (epoch
            // ms; expires Long.MIN_VALUE: never)}
            Map<String, long[]> sizes = new TreeMap<>();
            for (Path dir : dirs) {
                Set<Object> live = liveFiles(dir);
                for (Path snap : list(dir.resolve("snapshots"))) {
                    long[] sz = sizes.computeIfAbsent(snap.getFileName().toString(),
                            k -> new long[] {0, 0, Long.MAX_VALUE, Long.MIN_VALUE});
                    Instant[] times = manifestTimes(snap);
                    if (times[1] != null) {
                        sz[3] = Math.max(sz[3], times[1].toEpochMilli());
                    }
                    for (Path f : list(snap)) {
                        long size = size(f);
                        sz[0] += size;
                        if (!live.contains(fileKey(f))) {
                            sz[1] += size;
                        }
                    }
                    sz[2] = Math.min(sz[2], (times[0] != null ? times[0] : created(snap)).toEpochMilli());
                }
            }
            for (Map.Entry<String, long[]> e : sizes.entrySet()) {
                String tag = e.getKey();
                long[] sz = e.getValue();
                boolean hasTtl = sz[3] != Long.MIN_VALUE;
                if (noTtl && hasTtl) {
                    continue;
                }
                TabularData td = r.computeIfAbsent(tag, k -> new TabularDataSupport(TABLE));
                try {
                    td.put(new CompositeDataSupport(ROW, ITEMS, new Object[] {tag, t.keyspace(), t.name(),
                            FileSizes.stringify(sz[1]), FileSizes.stringify(sz[0]),
                            Instant.ofEpochMilli(sz[2]).toString(),
                            hasTtl ? Instant.ofEpochMilli(sz[3]).toString() : "", "false"}));
                } catch (OpenDataException ex) {
                    throw new IllegalStateException(ex);
                }
            }
        }
        return r;
    }

    /**
     * Bytes of snapshot files that no live SSTable shares; as in Cassandra's total, a snapshot's manifest is not
     * counted (its row in the details counts it).
     */
    long trueSize() {
        long n = 0;
        for (TableMetadata t : tables()) {
            List<Path> dirs = directoriesIfPresent(t);
            for (Path dir : dirs) {
                Set<Object> live = liveFiles(dir);
                for (Path snap : list(dir.resolve("snapshots"))) {
                    for (Path f : list(snap)) {
                        if (!live.contains(fileKey(f)) && !f.getFileName().toString().equals(MANIFEST)) {
                            n += size(f);
                        }
                    }
                }
            }
        }
        return n;
    }

    private static Set<Object> liveFiles(Path dir) {
        Set<Object> keys = new HashSet<>();
        for (Path f : list(dir)) {
            if (Files.isRegularFile(f)) {
                keys.add(fileKey(f));
            }
        }
        return keys;
    }

    /** The file's identity (inode), which a hard link shares; its path where the system has none. */
    private static Object fileKey(Path f) {
        try {
            Object k = Files.readAttributes(f, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS).fileKey();
            return k != null ? k : f.toAbsolutePath();
        } catch (IOException e) {
            return f.toAbsolutePath();
        }
    }

    private static long size(Path f) {
        try {
            return Files.size(f);
        } catch (IOException e) {
            return 0;
        }
    }

    private static Instant created(Path p) {
        try {
            BasicFileAttributes a = Files.readAttributes(p, BasicFileAttributes.class);
            return a.creationTime().toInstant();
        } catch (IOException e) {
            return Instant.EPOCH;
        }
    }

    private static List<Path> list(Path dir) {
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        try (Stream<Path> s = Files.list(dir)) {
            return s.sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void deleteTree(Path p) throws IOException {
        try (Stream<Path> s = Files.walk(p)) {
            for (Path f : s.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(f);
            }
        }
    }
}
