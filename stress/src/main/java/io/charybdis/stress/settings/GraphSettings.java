package io.charybdis.stress.settings;

import java.util.List;

/** {@code -graph}: the HTML report to create or append this run to, under a revision name and title. */
public record GraphSettings(String file, String revision, String title, String operation) {

    static GraphSettings parse(List<String> items, Command command) {
        if (items == null) {
            return new GraphSettings(null, "unknown", null, command.name());
        }
        Params p = new Params("-graph", items);
        String file = p.value("file=");
        String revision = p.value("revision=");
        String title = p.value("title=");
        String op = p.value("op=");
        p.finish();
        if (file == null) {
            throw SettingsException.invalidGroup("-graph");
        }
        return new GraphSettings(file, revision == null ? "unknown" : revision, title,
                op == null ? command.name() : op);
    }
}
