package io.charybdis.stress.settings;

import java.util.List;

/** {@code -port}: the native protocol port (9042) and the JMX port the GC statistics come from (7199). */
public record PortSettings(int nativePort, int jmxPort) {

    static PortSettings parse(List<String> items, ModeSettings mode) {
        Params p = new Params("-port", items == null ? List.of() : items);
        String nat = p.value("native=", "[0-9]+");
        String jmx = p.value("jmx=", "[0-9]+");
        p.finish();
        int nativePort = nat != null ? Integer.parseInt(nat) : mode.port() != null ? mode.port() : 9042;
        return new PortSettings(nativePort, jmx == null ? 7199 : Integer.parseInt(jmx));
    }
}
