package io.charybdis.stress;

import io.charybdis.stress.dist.Distribution;
import io.charybdis.stress.dist.DistributionSpec;
import io.charybdis.stress.ops.PredefinedWorkload;
import io.charybdis.stress.ops.UserWorkload;
import io.charybdis.stress.ops.Workload;
import io.charybdis.stress.report.Output;
import io.charybdis.stress.run.PhaseResult;
import io.charybdis.stress.run.StressRunner;
import io.charybdis.stress.settings.Command;
import io.charybdis.stress.settings.HelpPrinter;
import io.charybdis.stress.settings.SettingsException;
import io.charybdis.stress.settings.SettingsPrinter;
import io.charybdis.stress.settings.StressSettings;
import java.io.PrintStream;
import java.util.Locale;

/** {@code charybdis-stress <command> [options]}: a cassandra-stress-compatible load generator. */
public final class Main {

    private Main() {
    }

    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err));
    }

    /** Runs a command line; returns the process exit status. */
    public static int run(String[] args, PrintStream stdout, PrintStream stderr) {
        StressSettings settings;
        try {
            settings = StressSettings.parse(args);
        } catch (SettingsException e) {
            if (e.helpFor() != null) {
                HelpPrinter.print(e.helpFor(), stdout);
            }
            stdout.println(e.getMessage());
            return 1;
        }
        Command c = settings.command().type();
        if (c == Command.HELP) {
            HelpPrinter.print(settings.helpTopic(), stdout);
            return 0;
        }
        if (c == Command.VERSION) {
            String v = Main.class.getPackage().getImplementationVersion();
            stdout.println("Version: charybdis-stress " + (v == null ? "0.1.0-SNAPSHOT" : v)
                    + " (cassandra-stress 5.0 command line)");
            return 0;
        }
        if (c == Command.PRINT) {
            printDistribution(settings.printSpec(), stdout);
            return 0;
        }
        try (Output output = new Output(stdout, settings.log().file())) {
            PrintStream out = output.stream();
            settings.warnings().forEach(out::println);
            Workload workload = c == Command.USER ? UserWorkload.load(settings) : new PredefinedWorkload(settings);
            if (!settings.log().noSettings()) {
                SettingsPrinter.print(settings, workload::describe, out);
            }
            PhaseResult r = new StressRunner(settings, workload, out, String.join(" ", args)).run();
            return r == null || r.failure() != null ? 1 : 0;
        } catch (SettingsException e) {
            stdout.println(e.getMessage());
            return 1;
        } catch (Exception e) {
            stderr.println("charybdis-stress: " + e);
            e.printStackTrace(stderr);
            return 1;
        }
    }

    private static void printDistribution(String spec, PrintStream out) {
        DistributionSpec d = DistributionSpec.parse(spec);
        Distribution dist = d.create();
        out.println(d.display());
        out.println();
        out.printf(Locale.ROOT, "%-14s%s%n", "% of samples", "Value");
        double[] ps = {0, 0.001, 0.01, 0.05, 0.1, 0.25, 0.5, 0.75, 0.9, 0.95, 0.99, 0.999, 1};
        for (double p : ps) {
            out.printf(Locale.ROOT, "%-14s%d%n", trim(p * 100) + "%", dist.inverseCumProb(p));
        }
    }

    private static String trim(double v) {
        return v == Math.rint(v) ? String.valueOf((long) v) : String.valueOf(v);
    }
}
