package io.charybdis.node.cql.exceptions;

/** 0x2500 Unprepared: the statement id is not (or no longer) in the prepared cache; drivers re-prepare. */
public class UnpreparedException extends CqlException {
    public static final int CODE = 0x2500;
    private final byte[] id;

    public UnpreparedException(byte[] id) {
        super(CODE, "Prepared query with ID " + java.util.HexFormat.of().formatHex(id) + " not found (either the query "
                + "was not prepared on this host (maybe the host has been restarted?) or you have prepared too many "
                + "queries and it has been evicted from the internal cache)");
        this.id = id.clone();
    }

    public byte[] id() {
        return id.clone();
    }
}
