package io.charybdis.stress.profile;

import io.charybdis.stress.dist.DistributionSpec;
import io.charybdis.stress.dist.RatioSpec;
import io.charybdis.stress.settings.SettingsException;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.error.MarkedYAMLException;
import org.yaml.snakeyaml.error.YAMLException;

/**
 * A cassandra-stress YAML profile, as {@code user profile=FILE} reads it:
 * <pre>
 * specname: name                   # optional; names the profile's operations keyspace.table.op otherwise
 * keyspace: ks                     # required
 * keyspace_definition: CREATE KEYSPACE ks ...    # run when the keyspace is missing
 * table: t                         # required
 * table_definition: CREATE TABLE t (...)         # run (in the keyspace) when the table is missing
 * extra_definitions: [CREATE INDEX ..., ...]     # run every time; "already exists" is fine
 * columnspec:                      # per column, all optional
 *   - name: c
 *     size: uniform(4..8)          # text and blob length, collection element count
 *     population: uniform(1..100B) # the distinct values of the column
 *     cluster: fixed(1)            # clustering columns: values per partition (and parent prefix)
 * insert:
 *   partitions: fixed(1)           # partitions per batch
 *   select: fixed(1)/1             # the ratio of each partition's rows a batch writes (pertbatch: the old name)
 *   batchtype: LOGGED              # LOGGED, UNLOGGED or COUNTER
 * queries:
 *   name:
 *     cql: SELECT ... WHERE k = ?  # bind markers are bound to generated values of the columns they stand for
 *     fields: samerow              # samerow: all from one row of the partition; multirow: each from any row
 * token_range_queries: ...         # read, but not run yet
 * </pre>
 * Keys are matched as cassandra-stress matches them: the top level exactly, the options inside columnspec, insert
 * and queries in any case. Anything wrong is reported as a {@link SettingsException} naming the profile.
 *
 * @param source      the profile as given on the command line
 * @param columnSpecs by column name as written, in profile order
 * @param queries     by query name, in profile order
 */
public record StressProfile(String source, String specName, String keyspace, String keyspaceDefinition, String table,
                            String tableDefinition, List<String> extraDefinitions,
                            Map<String, ColumnSpec> columnSpecs, InsertSpec insert, Map<String, QuerySpec> queries,
                            Set<String> tokenRangeQueries) {

    private static final Set<String> TOP_LEVEL = Set.of("specname", "keyspace", "keyspace_definition", "table",
            "table_definition", "extra_definitions", "columnspec", "insert", "queries", "token_range_queries");

    /** A columnspec entry; null distributions were not given. */
    public record ColumnSpec(String name, DistributionSpec size, DistributionSpec population, DistributionSpec cluster) {
    }

    /**
     * The insert section; null where not given. {@code visits}, {@code revisit} and {@code rowPopulationRatio} are
     * read for compatibility but charybdis-stress writes each batch's rows in one visit.
     */
    public record InsertSpec(DistributionSpec partitions, RatioSpec select, String batchType, DistributionSpec visits,
                             DistributionSpec revisit, RatioSpec rowPopulationRatio) {
        static final InsertSpec NONE = new InsertSpec(null, null, null, null, null, null);
    }

    /** A named query; {@code multirow} for {@code fields: multirow}. */
    public record QuerySpec(String name, String cql, boolean multirow) {
    }

    /** The name the profile's operations go by with several profiles: specname, or keyspace.table. */
    public String qualifier() {
        return specName != null ? specName : keyspace + "." + table;
    }

    /** Reads a profile from a path or a URI ({@code file:///...}, or any URL Java can open). */
    public static StressProfile load(String location) {
        return parse(location, read(location));
    }

    private static String read(String location) {
        try {
            if (location.matches("[A-Za-z][A-Za-z0-9+.-]+:.*")) {
                URI uri = new URI(location);
                if ("file".equalsIgnoreCase(uri.getScheme())) {
                    return Files.readString(Path.of(uri), StandardCharsets.UTF_8);
                }
                try (InputStream in = uri.toURL().openStream()) {
                    return new String(in.readAllBytes(), StandardCharsets.UTF_8);
                }
            }
            return Files.readString(Path.of(location), StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            throw new SettingsException("Profile " + location + " not found: no such file " + e.getFile());
        } catch (IOException | URISyntaxException | IllegalArgumentException e) {
            throw new SettingsException("Profile " + location + " could not be read: " + e);
        }
    }

    /** Parses a profile's text; {@code source} names it in error messages. */
    public static StressProfile parse(String source, String yamlText) {
        LoaderOptions options = new LoaderOptions();
        options.setAllowDuplicateKeys(false);
        Object doc;
        try {
            doc = new Yaml(new SafeConstructor(options)).load(yamlText);
        } catch (MarkedYAMLException e) {
            Mark mark = e.getProblemMark();
            throw new SettingsException("Profile " + source + " is not valid YAML: " + e.getProblem()
                    + (mark == null ? "" : " (line " + (mark.getLine() + 1) + ", column " + (mark.getColumn() + 1) + ")"));
        } catch (YAMLException e) {
            throw new SettingsException("Profile " + source + " is not valid YAML: " + e.getMessage());
        }
        return new Reader(source).profile(doc);
    }

    /** Walks the parsed document, naming the profile and the place in every error. */
    private record Reader(String source) {

        StressProfile profile(Object doc) {
            Map<String, Object> top = map(doc, "the profile");
            for (String key : top.keySet()) {
                if (!TOP_LEVEL.contains(key)) {
                    throw error("unknown key '" + key + "' (expected " + String.join(", ", sorted(TOP_LEVEL)) + ")");
                }
            }
            String keyspace = text(top.get("keyspace"), "keyspace");
            String table = text(top.get("table"), "table");
            if (keyspace == null || keyspace.isBlank()) {
                throw error("keyspace name is required");
            }
            if (table == null || table.isBlank()) {
                throw error("table name is required");
            }
            return new StressProfile(source, text(top.get("specname"), "specname"), keyspace.trim(),
                    statement(top.get("keyspace_definition"), "keyspace_definition"), table.trim(),
                    statement(top.get("table_definition"), "table_definition"), extraDefinitions(top.get("extra_definitions")),
                    columnSpecs(top.get("columnspec")), insert(top.get("insert")), queries(top.get("queries")),
                    tokenRangeQueries(top.get("token_range_queries")));
        }

        private List<String> extraDefinitions(Object v) {
            if (v == null) {
                return List.of();
            }
            List<String> out = new ArrayList<>();
            for (Object o : list(v, "extra_definitions")) {
                out.add(statement(o, "extra_definitions"));
            }
            return List.copyOf(out);
        }

        private Map<String, ColumnSpec> columnSpecs(Object v) {
            Map<String, ColumnSpec> out = new LinkedHashMap<>();
            if (v == null) {
                return out;
            }
            for (Object o : list(v, "columnspec")) {
                Map<String, Object> spec = lowerKeys(map(o, "a columnspec entry"));
                String name = text(spec.remove("name"), "columnspec name");
                if (name == null || name.isBlank()) {
                    throw error("a columnspec entry has no name: " + o);
                }
                name = name.trim();
                String where = "columnspec '" + name + "'";
                DistributionSpec size = distribution(spec.remove("size"), where + " size");
                DistributionSpec population = distribution(spec.remove("population"), where + " population");
                DistributionSpec cluster = distribution(spec.remove("cluster"), where + " cluster");
                if (!spec.isEmpty()) {
                    throw error("unrecognised option(s) in " + where + ": " + String.join(", ", spec.keySet())
                            + " (expected name, size, population, cluster)");
                }
                if (out.put(name, new ColumnSpec(name, size, population, cluster)) != null) {
                    throw error("column '" + name + "' appears twice in columnspec");
                }
            }
            return Collections.unmodifiableMap(out);
        }

        private InsertSpec insert(Object v) {
            if (v == null) {
                return InsertSpec.NONE;
            }
            Map<String, Object> m = lowerKeys(map(v, "insert"));
            DistributionSpec partitions = distribution(m.remove("partitions"), "insert partitions");
            RatioSpec select = ratio(m.remove("select"), "insert select");
            RatioSpec pertbatch = ratio(m.remove("pertbatch"), "insert pertbatch");
            if (select != null && pertbatch != null) {
                throw error("insert has both select and pertbatch (its old name); keep select");
            }
            String batchType = text(m.remove("batchtype"), "insert batchtype");
            if (batchType != null) {
                batchType = batchType.trim().toUpperCase(Locale.ROOT);
                if (!Set.of("LOGGED", "UNLOGGED", "COUNTER").contains(batchType)) {
                    throw error("insert batchtype " + batchType + " is not one of LOGGED, UNLOGGED, COUNTER");
                }
            }
            DistributionSpec visits = distribution(m.remove("visits"), "insert visits");
            DistributionSpec revisit = distribution(m.remove("revisit"), "insert revisit");
            RatioSpec rowPopulation = ratio(m.remove("row-population-ratio"), "insert row-population-ratio");
            if (!m.isEmpty()) {
                throw error("unrecognised insert option(s): " + String.join(", ", m.keySet())
                        + " (expected partitions, select, batchtype, visits, revisit, row-population-ratio)");
            }
            return new InsertSpec(partitions, select != null ? select : pertbatch, batchType, visits, revisit, rowPopulation);
        }

        private Map<String, QuerySpec> queries(Object v) {
            Map<String, QuerySpec> out = new LinkedHashMap<>();
            if (v == null) {
                return out;
            }
            for (Map.Entry<String, Object> e : map(v, "queries").entrySet()) {
                String name = e.getKey();
                String where = "query '" + name + "'";
                if (name.equalsIgnoreCase("insert")) {
                    throw error("a query cannot be named insert (ops(insert=...) is the profile's insert)");
                }
                String cql;
                boolean multirow = false;
                if (e.getValue() instanceof Map<?, ?>) {
                    Map<String, Object> q = lowerKeys(map(e.getValue(), where));
                    cql = statement(q.remove("cql"), where + " cql");
                    String fields = text(q.remove("fields"), where + " fields");
                    if (fields != null) {
                        switch (fields.trim().toLowerCase(Locale.ROOT)) {
                            case "samerow" -> multirow = false;
                            case "multirow" -> multirow = true;
                            default -> throw error(where + " has fields: " + fields + "; expected samerow or multirow");
                        }
                    }
                    if (!q.isEmpty()) {
                        throw error("unrecognised option(s) in " + where + ": " + String.join(", ", q.keySet())
                                + " (expected cql, fields)");
                    }
                } else {
                    cql = statement(e.getValue(), where);
                }
                if (cql == null || cql.isBlank()) {
                    throw error(where + " has no cql");
                }
                out.put(name, new QuerySpec(name, cql, multirow));
            }
            return Collections.unmodifiableMap(out);
        }

        private Set<String> tokenRangeQueries(Object v) {
            return v == null ? Set.of() : Collections.unmodifiableSet(new LinkedHashSet<>(map(v, "token_range_queries").keySet()));
        }

        private DistributionSpec distribution(Object v, String where) {
            return parsed(v, where, DistributionSpec::parse);
        }

        private RatioSpec ratio(Object v, String where) {
            return parsed(v, where, RatioSpec::parse);
        }

        private <T> T parsed(Object v, String where, Function<String, T> parser) {
            String s = text(v, where);
            if (s == null) {
                return null;
            }
            try {
                return parser.apply(s);
            } catch (IllegalArgumentException e) {
                throw error(where + ": " + e.getMessage());
            }
        }

        /** A scalar as text (numbers and booleans too), or null. */
        private String text(Object v, String where) {
            if (v == null) {
                return null;
            }
            if (v instanceof Map<?, ?> || v instanceof List<?>) {
                throw error(where + " must be a single value, not " + v);
            }
            return v.toString();
        }

        /** A CQL statement, without surrounding blanks and trailing semicolons. */
        private String statement(Object v, String where) {
            String s = text(v, where);
            if (s == null) {
                return null;
            }
            s = s.strip();
            while (s.endsWith(";")) {
                s = s.substring(0, s.length() - 1).strip();
            }
            return s;
        }

        @SuppressWarnings("unchecked")
        private Map<String, Object> map(Object v, String what) {
            if (!(v instanceof Map<?, ?> m)) {
                throw error(what + " must be a mapping of keys to values, not " + describe(v));
            }
            Map<String, Object> out = new LinkedHashMap<>();
            for (Map.Entry<?, ?> e : m.entrySet()) {
                out.put(String.valueOf(e.getKey()), e.getValue());
            }
            return out;
        }

        private List<?> list(Object v, String what) {
            if (!(v instanceof List<?> l)) {
                throw error(what + " must be a list, not " + describe(v));
            }
            return l;
        }

        private static Map<String, Object> lowerKeys(Map<String, Object> m) {
            Map<String, Object> out = new LinkedHashMap<>();
            m.forEach((k, v) -> out.put(k.toLowerCase(Locale.ROOT), v));
            return out;
        }

        private static String describe(Object v) {
            return v == null ? "nothing" : v instanceof List<?> ? "a list" : "'" + v + "'";
        }

        private static List<String> sorted(Set<String> s) {
            return s.stream().sorted().toList();
        }

        private SettingsException error(String message) {
            return new SettingsException("Profile " + source + ": " + message);
        }
    }
}
