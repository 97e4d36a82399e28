package io.charybdis.stress.run;

import io.charybdis.stress.report.GcStats;
import io.charybdis.stress.report.ReportFormatter.Summary;
import java.util.List;

/** The outcome of a phase: figures per kind and in total, cluster GC, elapsed time, and the fatal error if any. */
public record PhaseResult(Summary total, List<Summary> perKind, GcStats gc, double elapsedSeconds, String failure) {
}
