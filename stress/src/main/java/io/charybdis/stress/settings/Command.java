package io.charybdis.stress.settings;

import java.util.Locale;

/** The first word of a cassandra-stress command line. */
public enum Command {
    READ("Multiple concurrent reads - the cluster must first be populated by a write test"),
    WRITE("Multiple concurrent writes against the cluster"),
    MIXED("Interleaving of any basic commands, with configurable ratio and distribution - the cluster must first be populated by a write test"),
    COUNTER_WRITE("Multiple concurrent updates of counters."),
    COUNTER_READ("Multiple concurrent reads of counters. The cluster must first be populated by a counterwrite test."),
    USER("Interleaving of user provided queries, with configurable ratio and distribution"),
    HELP("Print help for a command or option"),
    PRINT("Inspect the output of a distribution definition"),
    VERSION("Print the version of cassandra stress");

    private final String description;

    Command(String description) {
        this.description = description;
    }

    public String description() {
        return description;
    }

    public String lowerName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The command named {@code s} (any case; "counterwrite" and "counterread" accepted too), or null. */
    public static Command find(String s) {
        String n = s.toUpperCase(Locale.ROOT);
        switch (n) {
            case "COUNTERWRITE": return COUNTER_WRITE;
            case "COUNTERREAD": return COUNTER_READ;
            default:
                for (Command c : values()) {
                    if (c.name().equals(n)) {
                        return c;
                    }
                }
                return null;
        }
    }

    /** An operation that runs load (as opposed to help, print and version). */
    public boolean isLoad() {
        return this != HELP && this != PRINT && this != VERSION;
    }

    public boolean isWrite() {
        return this == WRITE || this == COUNTER_WRITE;
    }
}
