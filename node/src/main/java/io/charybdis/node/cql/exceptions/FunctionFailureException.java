package io.charybdis.node.cql.exceptions;

import java.util.List;

/** 0x1400 Function failure: a function (or operator) failed while executing, with the function's identity. */
public class FunctionFailureException extends CqlException {
    public static final int CODE = 0x1400;
    private final String keyspace;
    private final String function;
    private final List<String> argTypes;

    public FunctionFailureException(String message, String keyspace, String function, List<String> argTypes) {
        super(CODE, message);
        this.keyspace = keyspace;
        this.function = function;
        this.argTypes = List.copyOf(argTypes);
    }

    public String keyspace() {
        return keyspace;
    }

    public String function() {
        return function;
    }

    public List<String> argTypes() {
        return argTypes;
    }
}
