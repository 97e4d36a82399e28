package io.charybdis.node.cql.values;

import io.charybdis.protocol.types.DataType;

import java.nio.ByteBuffer;
import java.util.List;

/** A built-in scalar function of the {@code system} keyspace. */
public record NativeFunction(String name, List<DataType> argTypes, DataType returnType, boolean calledOnNullInput,
                             Impl impl) {

    @FunctionalInterface
    public interface Impl {
        ByteBuffer apply(List<ByteBuffer> args, BindContext ctx);
    }

    public ByteBuffer execute(List<ByteBuffer> args, BindContext ctx) {
        if (!calledOnNullInput) {
            for (ByteBuffer a : args) {
                if (a == null) {
                    return null;
                }
            }
        }
        try {
            return impl.apply(args, ctx);
        } catch (io.charybdis.node.cql.exceptions.CqlException e) {
            throw e;
        } catch (RuntimeException e) {
            // an argument the function cannot compute with (an overflow, a value out of its range): the function
            // failed, as Cassandra words it
            List<String> types = argTypes.stream().map(DataType::cqlName).toList();
            throw new io.charybdis.node.cql.exceptions.FunctionFailureException("execution of 'system." + name + "["
                    + String.join(", ", types) + "]' failed: " + e, "system", name, types);
        }
    }

    public String signature() {
        StringBuilder sb = new StringBuilder("system.").append(name).append('(');
        for (int i = 0; i < argTypes.size(); i++) {
            sb.append(i > 0 ? ", " : "").append(argTypes.get(i).cqlName());
        }
        return sb.append(')').toString();
    }
}
