package io.charybdis.node.cql.syntax;

import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.stream.Collectors;

/** A CQL type as written: {@code int}, {@code frozen<map<text, list<int>>>}, {@code ks.udt}, {@code 'a.Custom'}. */
public sealed interface CqlTypeSyntax {

    String toCql();

    /** The native (built-in, non-parameterised) types. */
    enum NativeType {
        ASCII, BIGINT, BLOB, BOOLEAN, COUNTER, DATE, DECIMAL, DOUBLE, DURATION, FLOAT, INET, INT, SMALLINT, TEXT,
        TIME, TIMESTAMP, TIMEUUID, TINYINT, UUID, VARCHAR, VARINT;

        public String cqlName() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    record Native(NativeType type) implements CqlTypeSyntax {
        public Native {
            Objects.requireNonNull(type, "type");
        }

        @Override
        public String toCql() {
            return type.cqlName();
        }
    }

    record ListType(CqlTypeSyntax element) implements CqlTypeSyntax {
        @Override
        public String toCql() {
            return "list<" + element.toCql() + ">";
        }
    }

    record SetType(CqlTypeSyntax element) implements CqlTypeSyntax {
        @Override
        public String toCql() {
            return "set<" + element.toCql() + ">";
        }
    }

    record MapType(CqlTypeSyntax key, CqlTypeSyntax value) implements CqlTypeSyntax {
        @Override
        public String toCql() {
            return "map<" + key.toCql() + ", " + value.toCql() + ">";
        }
    }

    record Frozen(CqlTypeSyntax inner) implements CqlTypeSyntax {
        @Override
        public String toCql() {
            return "frozen<" + inner.toCql() + ">";
        }
    }

    record TupleType(List<CqlTypeSyntax> elements) implements CqlTypeSyntax {
        public TupleType {
            elements = List.copyOf(elements);
        }

        @Override
        public String toCql() {
            return elements.stream().map(CqlTypeSyntax::toCql).collect(Collectors.joining(", ", "tuple<", ">"));
        }
    }

    /** A user-defined type by name; {@code name.keyspace()} is null when not qualified. */
    record UserType(QualifiedName name) implements CqlTypeSyntax {
        @Override
        public String toCql() {
            return name.toCql();
        }
    }

    record VectorType(CqlTypeSyntax element, int dimension) implements CqlTypeSyntax {
        @Override
        public String toCql() {
            return "vector<" + element.toCql() + ", " + dimension + ">";
        }
    }

    /** {@code 'org.apache.cassandra.db.marshal.XType'}: a custom type given by class name. */
    record Custom(String className) implements CqlTypeSyntax {
        @Override
        public String toCql() {
            return "'" + className.replace("'", "''") + "'";
        }
    }
}
