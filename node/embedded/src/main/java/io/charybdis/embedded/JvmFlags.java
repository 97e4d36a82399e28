package io.charybdis.embedded;

import java.util.ArrayList;
import java.util.List;

/**
 * The node's off-heap libraries (agrona, chronicle-bytes) need JDK internals opened to them. A JVM started without
 * the flags fails deep inside a shard with an {@link IllegalAccessError}; this check fails first, naming the flags
 * to add (e.g. to surefire's {@code argLine}).
 */
final class JvmFlags {

    static final String REQUIRED = "--add-exports=java.base/jdk.internal.misc=ALL-UNNAMED "
            + "--add-exports=java.base/jdk.internal.ref=ALL-UNNAMED --add-opens=java.base/sun.nio.ch=ALL-UNNAMED "
            + "--add-opens=java.base/java.lang.reflect=ALL-UNNAMED --add-opens=java.base/java.nio=ALL-UNNAMED";

    private JvmFlags() {
    }

    static void check() {
        Module base = Object.class.getModule();
        Module us = JvmFlags.class.getModule();
        List<String> missing = new ArrayList<>();
        if (!base.isExported("jdk.internal.misc", us)) {
            missing.add("--add-exports=java.base/jdk.internal.misc=ALL-UNNAMED");
        }
        if (!base.isOpen("sun.nio.ch", us)) {
            missing.add("--add-opens=java.base/sun.nio.ch=ALL-UNNAMED");
        }
        if (!missing.isEmpty()) {
            throw new IllegalStateException("Charybdis needs JVM flags this JVM was started without (missing: "
                    + String.join(" ", missing) + "). Start the JVM with: " + REQUIRED
                    + (Runtime.version().feature() >= 24
                    ? " --sun-misc-unsafe-memory-access=allow --enable-native-access=ALL-UNNAMED" : ""));
        }
    }
}
