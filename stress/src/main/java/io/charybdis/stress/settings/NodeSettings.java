package io.charybdis.stress.settings;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** {@code -node}: contact points (comma separated, or one per line in {@code file=}), default localhost. */
public record NodeSettings(List<String> nodes, boolean whitelist, String datacenter, String file) {

    static NodeSettings parse(List<String> items) {
        Params p = new Params("-node", items == null ? List.of() : items);
        String dc = p.value("datacenter=");
        boolean whitelist = p.flag("whitelist");
        String file = p.value("file=");
        List<String> rest = p.unused();
        if (rest.size() > 1 || (file != null && !rest.isEmpty())) {
            throw SettingsException.invalidGroup("-node");
        }
        List<String> nodes = new ArrayList<>();
        if (file != null) {
            try {
                for (String line : Files.readAllLines(Path.of(file))) {
                    if (!line.isBlank()) {
                        nodes.add(line.trim());
                    }
                }
            } catch (IOException e) {
                throw new SettingsException("Could not read node file " + file + ": " + e.getMessage());
            }
        } else if (!rest.isEmpty()) {
            for (String n : rest.get(0).split(",")) {
                if (!n.isBlank()) {
                    nodes.add(n.trim());
                }
            }
        }
        if (nodes.isEmpty()) {
            nodes.add("localhost");
        }
        return new NodeSettings(List.copyOf(nodes), whitelist, dc, file);
    }
}
