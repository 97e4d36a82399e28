package io.charybdis.node.cql.exceptions;

/** 0x2400 Already exists, with the keyspace and table (empty for a keyspace) as extra fields. */
public class AlreadyExistsException extends CqlException {
    public static final int CODE = 0x2400;
    private final String keyspace;
    private final String table;

    public AlreadyExistsException(String keyspace, String table) {
        super(CODE, table.isEmpty()
                ? "Cannot add existing keyspace \"" + keyspace + "\""
                : "Cannot add already existing table \"" + table + "\" to keyspace \"" + keyspace + "\"");
        this.keyspace = keyspace;
        this.table = table;
    }

    public AlreadyExistsException(String keyspace, String table, String message) {
        super(CODE, message);
        this.keyspace = keyspace;
        this.table = table;
    }

    public String keyspace() {
        return keyspace;
    }

    public String table() {
        return table;
    }
}
