package io.charybdis.embedded.junit;

/** The keyspace {@link CharybdisExtension#withKeyspacePerTest()} made for the current test. */
public record TestKeyspace(String name) {
}
