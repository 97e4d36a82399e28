package io.charybdis.node.tools;

import java.io.PrintStream;

/** Runs Charybdis's nodetool in this JVM for tests of other packages, its output and errors to one stream. */
public final class NodeToolAccess {
    private NodeToolAccess() {
    }

    public static int run(String[] args, PrintStream out) {
        return NodeTool.run(args, out, out);
    }
}
