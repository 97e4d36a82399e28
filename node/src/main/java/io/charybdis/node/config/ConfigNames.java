package io.charybdis.node.config;

/** Names shared by the config classes: packages of Cassandra class names and the override prefixes. */
final class ConfigNames {

    static final String CASSANDRA_AUTH_PACKAGE = "org.apache.cassandra.auth.";
    static final String CASSANDRA_DHT_PACKAGE = "org.apache.cassandra.dht.";
    static final String CASSANDRA_LOCATOR_PACKAGE = "org.apache.cassandra.locator.";

    /** System property prefix: {@code -Dcharybdis.native_transport_port=9043}. */
    static final String SYSTEM_PROPERTY_PREFIX = "charybdis.";
    /** Environment variable prefix: {@code CHARYBDIS_NATIVE_TRANSPORT_PORT=9043}. */
    static final String ENVIRONMENT_PREFIX = "CHARYBDIS_";

    /** {@code -Dcharybdis.home}: the base directory relative paths and default directories resolve against. */
    static final String HOME_PROPERTY = "charybdis.home";

    private ConfigNames() {
    }

    static String stripPackage(String className, String pkg) {
        return className.startsWith(pkg) ? className.substring(pkg.length()) : className;
    }
}
