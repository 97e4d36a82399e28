package io.charybdis.node.cql.syntax;

import java.util.List;
import java.util.Objects;

/** Data definition statements. Names of keyspaces, columns, fields are case-normalised. */
public sealed interface SchemaStatement extends Statement {

    // ---- shared parts -------------------------------------------------------------------------------------------

    /** {@code MASKED WITH fn(args)} or {@code MASKED WITH DEFAULT} ({@code function} = {@code mask_default}). */
    record ColumnMask(QualifiedName function, List<Term> args) {
        public ColumnMask {
            args = List.copyOf(args);
        }
    }

    /** A column of CREATE TABLE / ALTER TABLE ADD; {@code mask} is null when none. */
    record ColumnDefinition(String name, CqlTypeSyntax type, boolean isStatic, ColumnMask mask) {
        public ColumnDefinition {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(type, "type");
        }
    }

    /** {@code PRIMARY KEY ((p1, p2), c1, c2)}. */
    record PrimaryKey(List<String> partitionKey, List<String> clustering) {
        public PrimaryKey {
            partitionKey = List.copyOf(partitionKey);
            clustering = List.copyOf(clustering);
        }
    }

    /** One entry of {@code CLUSTERING ORDER BY (c ASC|DESC, ...)}. */
    record ClusteringOrder(String column, boolean descending) {
    }

    record Rename(String from, String to) {
    }

    record FunctionArgument(String name, CqlTypeSyntax type) {
    }

    // ---- keyspaces ----------------------------------------------------------------------------------------------

    record CreateKeyspace(String keyspace, boolean ifNotExists, Properties properties) implements SchemaStatement {
    }

    record AlterKeyspace(String keyspace, boolean ifExists, Properties properties) implements SchemaStatement {
    }

    record DropKeyspace(String keyspace, boolean ifExists) implements SchemaStatement {
    }

    // ---- tables -------------------------------------------------------------------------------------------------

    /**
     * {@code CREATE TABLE}; {@code primaryKey} is null when none was declared (the executor rejects that);
     * columns declared {@code PRIMARY KEY} inline become a one-column partition key.
     */
    record CreateTable(
            QualifiedName table,
            boolean ifNotExists,
            List<ColumnDefinition> columns,
            PrimaryKey primaryKey,
            List<ClusteringOrder> clusteringOrder,
            boolean compactStorage,
            Properties properties) implements SchemaStatement {
        public CreateTable {
            columns = List.copyOf(columns);
            clusteringOrder = List.copyOf(clusteringOrder);
        }
    }

    /** {@code ALTER TABLE [IF EXISTS] t action}. */
    record AlterTable(QualifiedName table, boolean ifExists, AlterTableAction action) implements SchemaStatement {
    }

    sealed interface AlterTableAction {
    }

    /** {@code ALTER c TYPE t} (not supported by Cassandra since 3.10, parsed for a clear error). */
    record AlterColumnType(String column, CqlTypeSyntax type) implements AlterTableAction {
    }

    /** {@code ALTER [IF EXISTS] c MASKED WITH ...} or {@code ... DROP MASKED} ({@code mask} null). */
    record AlterColumnMask(String column, boolean ifExists, ColumnMask mask) implements AlterTableAction {
    }

    record AddColumns(boolean ifNotExists, List<ColumnDefinition> columns) implements AlterTableAction {
        public AddColumns {
            columns = List.copyOf(columns);
        }
    }

    /** {@code DROP [IF EXISTS] c | (c1, c2) [USING TIMESTAMP ts]}; {@code timestamp} null when absent. */
    record DropColumns(boolean ifExists, List<String> columns, Long timestamp) implements AlterTableAction {
        public DropColumns {
            columns = List.copyOf(columns);
        }
    }

    record RenameColumns(boolean ifExists, List<Rename> renames) implements AlterTableAction {
        public RenameColumns {
            renames = List.copyOf(renames);
        }
    }

    record DropCompactStorage() implements AlterTableAction {
    }

    record AlterTableOptions(Properties properties) implements AlterTableAction {
    }

    record DropTable(QualifiedName table, boolean ifExists) implements SchemaStatement {
    }

    // ---- user types ---------------------------------------------------------------------------------------------

    record CreateType(QualifiedName type, boolean ifNotExists, List<FunctionArgument> fields)
            implements SchemaStatement {
        public CreateType {
            fields = List.copyOf(fields);
        }
    }

    record AlterType(QualifiedName type, boolean ifExists, AlterTypeAction action) implements SchemaStatement {
    }

    sealed interface AlterTypeAction {
    }

    record AlterFieldType(String field, CqlTypeSyntax type) implements AlterTypeAction {
    }

    record AddField(boolean ifNotExists, String field, CqlTypeSyntax type) implements AlterTypeAction {
    }

    record RenameFields(boolean ifExists, List<Rename> renames) implements AlterTypeAction {
        public RenameFields {
            renames = List.copyOf(renames);
        }
    }

    record DropType(QualifiedName type, boolean ifExists) implements SchemaStatement {
    }

    // ---- indexes ------------------------------------------------------------------------------------------------

    enum IndexTargetKind { SIMPLE, KEYS, VALUES, ENTRIES, FULL }

    record IndexTarget(String column, IndexTargetKind kind) {
    }

    /**
     * {@code CREATE [CUSTOM] INDEX [IF NOT EXISTS] [name] ON t (targets) [USING 'class'] [WITH OPTIONS = {...}]};
     * {@code name} and {@code usingClass} are null when absent.
     */
    record CreateIndex(
            boolean custom,
            boolean ifNotExists,
            String name,
            QualifiedName table,
            List<IndexTarget> targets,
            String usingClass,
            Properties properties) implements SchemaStatement {
        public CreateIndex {
            targets = List.copyOf(targets);
        }
    }

    record DropIndex(QualifiedName index, boolean ifExists) implements SchemaStatement {
    }

    // ---- materialised views -------------------------------------------------------------------------------------

    /** {@code selectors} empty means {@code *}. */
    record CreateView(
            QualifiedName view,
            boolean ifNotExists,
            List<Selector.Item> selectors,
            QualifiedName baseTable,
            List<Relation> where,
            PrimaryKey primaryKey,
            List<ClusteringOrder> clusteringOrder,
            Properties properties) implements SchemaStatement {
        public CreateView {
            selectors = List.copyOf(selectors);
            where = List.copyOf(where);
            clusteringOrder = List.copyOf(clusteringOrder);
        }
    }

    record AlterView(QualifiedName view, boolean ifExists, Properties properties) implements SchemaStatement {
    }

    record DropView(QualifiedName view, boolean ifExists) implements SchemaStatement {
    }

    // ---- functions, aggregates, triggers ------------------------------------------------------------------------

    record CreateFunction(
            QualifiedName function,
            boolean orReplace,
            boolean ifNotExists,
            List<FunctionArgument> arguments,
            boolean calledOnNullInput,
            CqlTypeSyntax returnType,
            String language,
            String body) implements SchemaStatement {
        public CreateFunction {
            arguments = List.copyOf(arguments);
        }
    }

    /** {@code argumentTypes} is null when no signature was given ({@code DROP FUNCTION f}). */
    record DropFunction(QualifiedName function, boolean ifExists, List<CqlTypeSyntax> argumentTypes)
            implements SchemaStatement {
        public DropFunction {
            argumentTypes = argumentTypes == null ? null : List.copyOf(argumentTypes);
        }
    }

    /** {@code finalFunction} and {@code initCond} are null when absent. */
    record CreateAggregate(
            QualifiedName aggregate,
            boolean orReplace,
            boolean ifNotExists,
            List<CqlTypeSyntax> argumentTypes,
            String stateFunction,
            CqlTypeSyntax stateType,
            String finalFunction,
            Term initCond) implements SchemaStatement {
        public CreateAggregate {
            argumentTypes = List.copyOf(argumentTypes);
        }
    }

    /** {@code argumentTypes} is null when no signature was given. */
    record DropAggregate(QualifiedName aggregate, boolean ifExists, List<CqlTypeSyntax> argumentTypes)
            implements SchemaStatement {
        public DropAggregate {
            argumentTypes = argumentTypes == null ? null : List.copyOf(argumentTypes);
        }
    }

    record CreateTrigger(String name, boolean ifNotExists, QualifiedName table, String triggerClass)
            implements SchemaStatement {
    }

    record DropTrigger(String name, boolean ifExists, QualifiedName table) implements SchemaStatement {
    }
}
