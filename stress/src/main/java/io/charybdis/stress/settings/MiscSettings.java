package io.charybdis.stress.settings;

import java.util.List;

/**
 * The small option groups: {@code -jmx} credentials, {@code -tokenrange}, {@code -credentials-file},
 * {@code -reporting} and {@code -sendto} (accepted for old command lines; the run is always local).
 */
public record MiscSettings(String jmxUser, String jmxPassword, boolean tokenRangeWrap, int tokenRangeSplitFactor,
                           String credentialsFile, long outputFrequencyMillis, Long headerFrequencyMillis,
                           String sendTo) {

    static MiscSettings parse(java.util.Map<String, List<String>> groups) {
        Params jmx = new Params("-jmx", groups.getOrDefault("-jmx", List.of()));
        String user = jmx.value("user=");
        String password = jmx.value("password=");
        jmx.finish();

        Params tr = new Params("-tokenrange", groups.getOrDefault("-tokenrange", List.of()));
        boolean wrap = tr.flag("wrap");
        String split = tr.value("split-factor=", "[0-9]+");
        tr.finish();

        List<String> cred = groups.get("-credentials-file");
        if (cred != null && cred.size() != 1) {
            throw SettingsException.invalidGroup("-credentials-file");
        }

        Params rep = new Params("-reporting", groups.getOrDefault("-reporting", List.of()));
        String output = rep.value("output-frequency=", "[0-9]+(ms|s)?");
        String header = rep.value("header-frequency=", "[0-9]+(ms|s)?");
        rep.finish();

        List<String> sendto = groups.get("-sendto");
        if (sendto != null && sendto.size() != 1) {
            throw SettingsException.invalidGroup("-sendto");
        }
        return new MiscSettings(user, password, wrap, split == null ? 1 : Integer.parseInt(split),
                cred == null ? null : cred.get(0), output == null ? 1000 : LogSettings.intervalMillis(output),
                header == null ? null : LogSettings.intervalMillis(header), sendto == null ? null : sendto.get(0));
    }
}
