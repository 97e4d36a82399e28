package io.charybdis.stress.settings;

import java.util.List;
import java.util.Locale;

/**
 * {@code -mode}: how to talk to the cluster. Only the native protocol exists; {@code native}, {@code cql3} and
 * {@code thrift} are accepted and ignored with a warning, as cassandra-stress 5.0 does.
 *
 * @param protocolVersion null for the newest the cluster supports, else 3, 4, 5 (or V4 ...)
 * @param compression     none, lz4 or snappy
 */
public record ModeSettings(boolean prepared, Integer protocolVersion, String user, String password, Integer port,
                           String authProvider, int maxPendingPerConnection, int connectionsPerHost,
                           String compression, boolean simpleNative) {

    static ModeSettings parse(List<String> items, List<String> warnings) {
        Params p = new Params("-mode", items == null ? List.of() : items);
        for (String deprecated : List.of("native", "cql3", "thrift", "cql3_native", "javadriver")) {
            if (p.flag(deprecated)) {
                warnings.add("Warning: ignoring deprecated parameter: " + deprecated);
            }
        }
        String user = p.value("user=");
        String password = p.value("password=");
        String port = p.value("port=", "[0-9]+");
        String auth = p.value("auth-provider=");
        String maxPending = p.value("maxPending=", "[0-9]+");
        String compression = p.value("compression=", "none|lz4|snappy");
        String connections = p.value("connectionsPerHost=", "[0-9]+");
        boolean prepared = p.flag("prepared");
        boolean unprepared = p.flag("unprepared");
        String version = p.value("protocolVersion=", "(v|V)?[1-9]|NEWEST_SUPPORTED");
        boolean simple = p.flag("simplenative");
        p.finish();
        if (prepared && unprepared) {
            throw SettingsException.invalidGroup("-mode");
        }
        Integer v = null;
        if (version != null && !version.equalsIgnoreCase("NEWEST_SUPPORTED")) {
            v = Integer.parseInt(version.replaceAll("[vV]", ""));
        }
        return new ModeSettings(!unprepared, v, user, password, port == null ? null : Integer.parseInt(port), auth,
                maxPending == null ? 128 : Integer.parseInt(maxPending),
                connections == null ? 8 : Integer.parseInt(connections),
                compression == null ? "none" : compression.toLowerCase(Locale.ROOT), simple);
    }
}
