package io.charybdis.node.schema;

import org.yaml.snakeyaml.DumperOptions;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

import java.io.IOException;
import java.io.Writer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Map;

/**
 * Durable schema: one YAML document, {@code schema.yaml} in the first data directory, rewritten atomically on every
 * change (write to a temporary file, fsync, rename, fsync the directory) before the change is acknowledged.
 *
 * <p>Tables and types are stored as the CQL that recreates them, plus what CQL cannot carry (table ids, cell ids of
 * columns, dropped columns), so the schema of a restarted node is rebuilt through the same code path as DDL.
 */
public final class SchemaStore {
    public static final String FILE_NAME = "schema.yaml";
    private static final int FORMAT_VERSION = 1;

    private final Path file;

    public SchemaStore(Path directory) {
        this.file = directory.resolve(FILE_NAME);
    }

    public Path file() {
        return file;
    }

    /** Returns the stored document, or null when the node has never stored a schema. */
    @SuppressWarnings("unchecked")
    public Map<String, Object> load() throws IOException {
        Files.deleteIfExists(file.resolveSibling(FILE_NAME + ".tmp"));
        if (!Files.exists(file)) {
            return null;
        }
        String text = Files.readString(file, StandardCharsets.UTF_8);
        Object doc = new Yaml(new SafeConstructor(new LoaderOptions())).load(text);
        if (!(doc instanceof Map<?, ?> map)) {
            throw new IOException("Corrupt schema file " + file + ": not a YAML mapping");
        }
        Object version = map.get("format_version");
        if (!(version instanceof Integer v) || v != FORMAT_VERSION) {
            throw new IOException("Unsupported schema file format_version=" + version + " in " + file);
        }
        return (Map<String, Object>) map;
    }

    public void store(Map<String, Object> document) throws IOException {
        Files.createDirectories(file.getParent());
        DumperOptions opts = new DumperOptions();
        opts.setDefaultFlowStyle(DumperOptions.FlowStyle.BLOCK);
        opts.setWidth(160);
        Map<String, Object> doc = new java.util.LinkedHashMap<>();
        doc.put("format_version", FORMAT_VERSION);
        doc.putAll(document);
        String text = new Yaml(opts).dump(doc);
        Path tmp = file.resolveSibling(FILE_NAME + ".tmp");
        try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING);
             Writer w = java.nio.channels.Channels.newWriter(ch, StandardCharsets.UTF_8)) {
            w.write(text);
            w.flush();
            ch.force(true);
        }
        try {
            Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
        }
        try (FileChannel dir = FileChannel.open(file.getParent(), StandardOpenOption.READ)) {
            dir.force(true);
        } catch (IOException ignored) {
            // Some file systems cannot open directories; the rename is still durable on the common ones.
        }
    }
}
