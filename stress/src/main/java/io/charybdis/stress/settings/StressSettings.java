package io.charybdis.stress.settings;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Everything a cassandra-stress command line says, typed. Built once by {@link #parse(String...)} and passed
 * down; nothing reads the command line again.
 *
 * <p>The grammar: {@code <command> [command params] [-group [group params]]...}. A parameter is split further
 * at white space outside parentheses, so {@code -rate 'threads=150 limit=20000/s'} and
 * {@code -rate threads=150 limit=20000/s} mean the same. Group names and parameter names are case-insensitive.
 *
 * @param helpTopic  for {@code help}: the command or option to describe, or null for the overview
 * @param printSpec  for {@code print}: the distribution to describe
 * @param warnings   lines to print before the run ("Warning: ignoring deprecated parameter: native")
 */
public record StressSettings(CommandSettings command, PopulationSettings population, RateSettings rate,
                             ColumnSettings columns, SchemaSettings schema, ModeSettings mode, NodeSettings node,
                             PortSettings port, LogSettings log, ErrorSettings errors, GraphSettings graph,
                             InsertSettings insert, TransportSettings transport, MiscSettings misc,
                             String helpTopic, String printSpec, List<String> warnings) {

    /** The option groups, in the order {@code help} lists them, with their one-line descriptions. */
    public static final Map<String, String> GROUPS;

    static {
        Map<String, String> g = new LinkedHashMap<>();
        g.put("-pop", "Population distribution and intra-partition visit order");
        g.put("-insert", "Insert specific options relating to various methods for batching and splitting partition updates");
        g.put("-col", "Column details such as size and count distribution, data generator, names, comparator and if super columns should be used");
        g.put("-rate", "Thread count, rate limit or automatic mode (default is auto)");
        g.put("-mode", "CQL mode options");
        g.put("-errors", "How to handle errors when encountered during stress");
        g.put("-schema", "Replication settings, compression, compaction, etc.");
        g.put("-node", "Nodes to connect to");
        g.put("-log", "Where to log progress to, and the interval at which to do it");
        g.put("-transport", "Custom transport factories");
        g.put("-port", "The port to connect to cassandra nodes on");
        g.put("-jmx", "JMX credentials");
        g.put("-graph", "Graph recorded metrics");
        g.put("-tokenrange", "Token range settings");
        g.put("-credentials-file", "Credentials file for CQL, JMX and transport");
        g.put("-reporting", "Frequency of printing statistics and header for stress output");
        g.put("-sendto", "Accepted for old command lines; the load always runs in this process");
        GROUPS = java.util.Collections.unmodifiableMap(g);
    }

    public static StressSettings parse(String... args) {
        List<String> tokens = tokenize(Arrays.asList(args));
        if (tokens.isEmpty() || tokens.get(0).startsWith("-")) {
            throw new SettingsException("No command provided", "");
        }
        Command command = Command.find(tokens.get(0));
        if (command == null) {
            throw new SettingsException("Unrecognised command: " + tokens.get(0), "");
        }
        if (command == Command.HELP) {
            if (tokens.size() > 2) {
                throw new SettingsException("help takes at most one command or option name", "");
            }
            return special(command, tokens.size() == 2 ? tokens.get(1) : null, null);
        }
        List<String> commandParams = new ArrayList<>();
        Map<String, List<String>> groups = new LinkedHashMap<>();
        List<String> unknown = new ArrayList<>();
        List<String> current = commandParams;
        for (String t : tokens.subList(1, tokens.size())) {
            if (t.startsWith("-") && t.length() > 1 && !Character.isDigit(t.charAt(1))) {
                String name = t.toLowerCase(java.util.Locale.ROOT);
                if (GROUPS.containsKey(name)) {
                    current = groups.computeIfAbsent(name, k -> new ArrayList<>());
                } else {
                    unknown.add(t);
                    current = unknown;
                }
            } else {
                current.add(t);
            }
        }
        if (!unknown.isEmpty()) {
            throw new SettingsException("Error processing command line arguments. The following were ignored: "
                    + String.join(" ", unknown), "");
        }

        if (command == Command.VERSION) {
            return special(command, null, null);
        }
        if (command == Command.PRINT) {
            if (commandParams.size() != 1 || !commandParams.get(0).toLowerCase(java.util.Locale.ROOT).startsWith("dist=")) {
                throw new SettingsException("Usage: print dist=DIST(?)", "print");
            }
            String spec = commandParams.get(0).substring("dist=".length());
            try {
                io.charybdis.stress.dist.DistributionSpec.parse(spec);
            } catch (IllegalArgumentException e) {
                throw new SettingsException(e.getMessage(), "print");
            }
            return special(command, null, spec);
        }

        List<String> warnings = new ArrayList<>();
        CommandSettings cmd = CommandSettings.parse(command, commandParams);
        ModeSettings mode = ModeSettings.parse(groups.get("-mode"), warnings);
        MiscSettings misc = MiscSettings.parse(groups);
        if (misc.sendTo() != null) {
            warnings.add("Warning: -sendto is not supported; running the load in this process");
        }
        return new StressSettings(cmd, PopulationSettings.parse(groups.get("-pop"), cmd),
                RateSettings.parse(groups.get("-rate"), cmd), ColumnSettings.parse(groups.get("-col")),
                SchemaSettings.parse(groups.get("-schema")), mode, NodeSettings.parse(groups.get("-node")),
                PortSettings.parse(groups.get("-port"), mode), LogSettings.parse(groups.get("-log")),
                ErrorSettings.parse(groups.get("-errors")), GraphSettings.parse(groups.get("-graph"), command),
                InsertSettings.parse(groups.get("-insert")), TransportSettings.parse(groups.get("-transport")),
                misc, null, null, List.copyOf(warnings));
    }

    private static StressSettings special(Command command, String topic, String spec) {
        CommandSettings cmd = new CommandSettings(command, -1, 0, null, false, CommandSettings.Truncate.NEVER,
                "LOCAL_ONE", -1, 30, 200, 10, null, Map.of(), null, List.of(), Map.of());
        return new StressSettings(cmd, null, null, null, null, null, null, null, null, null, null, null, null, null,
                topic, spec, List.of());
    }

    /**
     * Splits each argument at white space that is not inside parentheses, and joins arguments that the shell split
     * inside parentheses ({@code replication(strategy=X dc1=3)} unquoted).
     */
    static List<String> tokenize(List<String> args) {
        List<String> out = new ArrayList<>();
        StringBuilder sb = new StringBuilder();
        int depth = 0;
        for (String arg : args) {
            if (depth > 0) {
                sb.append(' ');
            }
            for (int i = 0; i < arg.length(); i++) {
                char c = arg.charAt(i);
                if (c == '(') {
                    depth++;
                } else if (c == ')') {
                    depth = Math.max(0, depth - 1);
                }
                if (Character.isWhitespace(c) && depth == 0) {
                    if (!sb.isEmpty()) {
                        out.add(sb.toString());
                        sb.setLength(0);
                    }
                } else {
                    sb.append(c);
                }
            }
            if (!sb.isEmpty() && depth == 0) {
                out.add(sb.toString());
                sb.setLength(0);
            }
        }
        if (!sb.isEmpty()) {
            out.add(sb.toString());
        }
        return out;
    }
}
