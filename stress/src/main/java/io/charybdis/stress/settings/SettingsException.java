package io.charybdis.stress.settings;

/**
 * A command line that cassandra-stress would reject. {@link #helpFor()} names the command or option group whose
 * help text to print before the message (as cassandra-stress does), or is null when no help applies.
 */
public final class SettingsException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final String helpFor;

    public SettingsException(String message) {
        this(message, null);
    }

    public SettingsException(String message, String helpFor) {
        super(message);
        this.helpFor = helpFor;
    }

    /** "-rate", "write", ... or null. */
    public String helpFor() {
        return helpFor;
    }

    static SettingsException invalidGroup(String group) {
        return new SettingsException("Invalid " + group + " options provided, see output for valid options", group);
    }
}
