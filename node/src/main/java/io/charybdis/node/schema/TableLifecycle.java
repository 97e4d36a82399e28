package io.charybdis.node.schema;

/** What the storage engine must do when tables come and go; called with the new schema already durable. */
public interface TableLifecycle {
    void created(TableMetadata table);

    void altered(TableMetadata before, TableMetadata after);

    void dropped(TableMetadata table);

    TableLifecycle NONE = new TableLifecycle() {
        @Override
        public void created(TableMetadata table) {
        }

        @Override
        public void altered(TableMetadata before, TableMetadata after) {
        }

        @Override
        public void dropped(TableMetadata table) {
        }
    };
}
