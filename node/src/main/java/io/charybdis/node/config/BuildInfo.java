package io.charybdis.node.config;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;

/** The version this node was built as, from the Maven metadata in its jar ({@code dev} when run from classes). */
public final class BuildInfo {

    private static final String POM_PROPERTIES = "/META-INF/maven/io.charybdis/charybdis-node/pom.properties";

    private BuildInfo() {
    }

    public static String version() {
        Package pkg = BuildInfo.class.getPackage();
        if (pkg != null && pkg.getImplementationVersion() != null) {
            return pkg.getImplementationVersion();
        }
        try (InputStream in = BuildInfo.class.getResourceAsStream(POM_PROPERTIES)) {
            if (in != null) {
                Properties p = new Properties();
                p.load(in);
                return p.getProperty("version", "dev");
            }
        } catch (IOException e) {
            // fall through
        }
        return "dev";
    }
}
