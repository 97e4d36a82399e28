package io.charybdis.stress.ops;

import io.charybdis.stress.settings.SettingsException;
import io.charybdis.stress.settings.StressSettings;

/**
 * The {@code user} command's workload from a YAML profile. Not implemented yet: the command line is parsed and
 * validated (profile=, ops(...)), and running it reports that profiles are unsupported.
 */
public final class UserWorkload {

    private UserWorkload() {
    }

    public static Workload load(StressSettings settings) {
        throw new SettingsException("user profiles are not supported yet by charybdis-stress (profile="
                + String.join(",", settings.command().profiles()) + ")");
    }
}
