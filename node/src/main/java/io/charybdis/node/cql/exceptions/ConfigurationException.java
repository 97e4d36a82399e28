package io.charybdis.node.cql.exceptions;

/** 0x2300 Config error: invalid schema options (replication, compaction, ...). */
public class ConfigurationException extends CqlException {
    public static final int CODE = 0x2300;

    public ConfigurationException(String message) {
        super(CODE, message);
    }
}
