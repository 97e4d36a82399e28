package io.charybdis.node.config;

/**
 * The configuration cannot be used: a malformed YAML file, a value of the wrong form, or a setting Charybdis
 * does not support. The message names the key and where its value came from; the node refuses to start.
 */
public final class ConfigurationException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public ConfigurationException(String message) {
        super(message);
    }

    public ConfigurationException(String message, Throwable cause) {
        super(message, cause);
    }
}
