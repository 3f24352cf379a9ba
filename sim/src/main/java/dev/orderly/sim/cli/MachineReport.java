package dev.orderly.sim.cli;

import dev.orderly.api.EngineConfig;
import dev.orderly.sim.fleet.Admission;
import dev.orderly.sim.fleet.FaultRates;
import dev.orderly.sim.fleet.FleetConfig;
import dev.orderly.sim.fleet.TimeScale;
import dev.orderly.sim.report.ComparisonTable;
import dev.orderly.sim.report.Report;
import dev.orderly.sim.report.StrategyMetrics;
import dev.orderly.sim.run.RunResult;
import dev.orderly.sim.run.Scenario;
import dev.orderly.sim.run.TenantRecord;
import dev.orderly.sim.run.TenantResult;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.ToDoubleFunction;

/**
 * The report for scripts: the table's rows and ratio rows as CSV, or everything (the scenario, every tenant's
 * figures, the rows, every ratio row of the table, the notes) as JSON. Times are simulated seconds, as in the table;
 * a figure that did not happen (no segment delivered, a ratio over zero) is empty in CSV and {@code null} in JSON.
 */
final class MachineReport {

    /** The CSV columns, in order: the table's, with units in the names and the counts the table folds in. */
    static final List<String> CSV_COLUMNS = List.of("strategy", "tenants", "first_segment_s", "mean_delivery_s",
            "lag_p50_s", "lag_p90_s", "lag_max_s", "client_stall_s", "total_s", "dials", "refusals", "dials_per_s",
            "failures", "reruns", "failed_requests");

    private MachineReport() {
    }

    /**
     * One header line, one line per row, and the table's ratio rows (labels {@code ordered/unordered},
     * {@code ordered/oracle}, {@code waiting room/oracle}, those that the runs made) last.
     */
    static String csv(Report report) {
        StringBuilder out = new StringBuilder(String.join(",", CSV_COLUMNS)).append('\n');
        for (StrategyMetrics m : report.rows()) {
            out.append(String.join(",", quoted(m.label()), Integer.toString(m.tenants()), number(m.firstSegment()),
                    number(m.meanDelivery()), number(m.lagP50()), number(m.lagP90()), number(m.lagMax()),
                    number(m.stall()), number(m.total()),
                    Long.toString(m.dials()), Long.toString(m.refusals()), number(m.dialsPerSecond()),
                    Long.toString(m.failures()), Long.toString(m.reruns()), Integer.toString(m.failedRequests())))
                    .append('\n');
        }
        for (ComparisonTable.Ratio ratio : report.ratios()) {
            Map<String, Double> r = figures(ratio);
            out.append(String.join(",", quoted(ratio.label()), "", number(r.get("firstSegment")),
                    number(r.get("meanDelivery")), number(r.get("lagP50")), number(r.get("lagP90")),
                    number(r.get("lagMax")),
                    number(r.get("clientStall")), number(r.get("total")), number(r.get("dials")),
                    number(r.get("refusals")), number(r.get("dialsPerSecond")), "", "", "")).append('\n');
        }
        return out.toString();
    }

    /** The whole report as one JSON document; {@code picture} is null when it was not written. */
    static String json(Scenario scenario, List<RunResult> runs, Report report, Path picture,
            Optional<Path> flightRecording, double wallSeconds, List<Observation.MeterLine> meters) {
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("scenario", scenario(scenario));
        List<Object> runList = new ArrayList<>();
        for (RunResult run : runs) {
            Map<String, Object> r = new LinkedHashMap<>();
            r.put("run", run.spec().name());
            r.put("completed", run.allCompleted());
            List<Object> tenants = new ArrayList<>();
            for (TenantResult t : run.tenants()) {
                tenants.add(tenant(t, run.timeScale()));
            }
            r.put("tenants", tenants);
            runList.add(r);
        }
        doc.put("runs", runList);
        List<Object> rows = new ArrayList<>();
        for (StrategyMetrics m : report.rows()) {
            rows.add(row(m));
        }
        doc.put("rows", rows);
        // "ratios" is ordered/unordered alone, as it always was (scripts read .ratios.meanDelivery); "ratioRows" is
        // every ratio row of the table, each under its label.
        Optional<ComparisonTable.Ratio> baseline = report.ratios().stream()
                .filter(r -> r.label().equals(ComparisonTable.RATIO_LABEL)).findFirst();
        doc.put("ratios", baseline.map(MachineReport::figures).orElse(null));
        List<Object> ratioRows = new ArrayList<>();
        for (ComparisonTable.Ratio ratio : report.ratios()) {
            Map<String, Object> r = new LinkedHashMap<>();
            r.put("ratio", ratio.label());
            r.putAll(figures(ratio));
            ratioRows.add(r);
        }
        doc.put("ratioRows", ratioRows);
        doc.put("notes", report.notes());
        doc.put("picture", picture == null ? null : picture.toString()); // null: its write failed
        doc.put("flightRecording", flightRecording.map(Path::toString).orElse(null));
        doc.put("wallClockSeconds", wallSeconds);
        if (!meters.isEmpty()) {
            List<Object> m = new ArrayList<>();
            for (Observation.MeterLine line : meters) {
                Map<String, Object> entry = new LinkedHashMap<>();
                entry.put("name", line.name());
                entry.put("tags", line.tags());
                entry.put("type", line.type());
                if (line.type().equals("timer")) {
                    entry.put("count", line.count());
                    entry.put("totalMillis", line.totalMillis());
                    entry.put("maxMillis", line.maxMillis());
                } else {
                    entry.put("value", line.value());
                }
                m.add(entry);
            }
            doc.put("meters", m);
        }
        return Json.write(doc);
    }

    private static Map<String, Object> scenario(Scenario s) {
        FleetConfig f = s.fleet();
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("tenants", s.tenants());
        m.put("segments", s.segments());
        m.put("stages", s.stages());
        m.put("workers", s.workers());
        m.put("instances", f.instances());
        m.put("slotsPerInstance", f.slotsPerInstance());
        m.put("jobSeconds", f.jobDuration().toNanos() / 1e9);
        m.put("jobSpread", f.jobSpread());
        m.put("clientSeconds", s.clientTime().toNanos() / 1e9);
        m.put("refusedDelaySeconds", s.refusedDelay().toNanos() / 1e9);
        m.put("failureDelaySeconds", s.failureDelay().toNanos() / 1e9);
        m.put("seed", f.seed());
        m.put("timeScale", f.timeScale().factor());
        // Everything else the heading names: without them two runs of different options printed the same scenario.
        FaultRates r = f.faults();
        m.put("unreachableRate", r.unreachable());
        m.put("timeoutRate", r.executionTimeout());
        m.put("retryableRate", r.retryable());
        m.put("fatalRate", r.fatal());
        m.put("missingOutputRate", r.outputMissing());
        EngineConfig e = s.engine();
        m.put("launchWindowPercent", e.launchWindowPercent());
        m.put("launchWindowMin", e.launchWindowMin());
        m.put("launchWindowMax", e.launchWindowMax());
        m.put("maxFailures", e.maxFailures());
        m.put("maxExecutionTimeouts", e.maxExecutionTimeouts());
        m.put("lookaheadFactor", e.lookaheadFactor());
        m.put("maxConcurrentJobs", e.maxConcurrentJobs());
        Admission a = s.admission();
        m.put("admission", a.hasRoom() ? "wait" : "refuse");
        if (a.hasRoom()) {
            m.put("admissionWaitSeconds", a.maxWait().toNanos() / 1e9);
            m.put("room", a.room());
            // What the run waited at, as the heading says it: a dial waits at no more instances than there are.
            m.put("waitAt", Math.min(a.waitAt(), f.instances()));
        }
        return m;
    }

    private static Map<String, Object> tenant(TenantResult t, TimeScale scale) {
        TenantRecord r = t.record();
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("tenant", r.tenant());
        m.put("strategy", r.strategy().label());
        m.put("failure", t.failure().orElse(null));
        m.put("segments", r.segments());
        m.put("delivered", r.delivered());
        m.put("firstSegmentSeconds", at(r.firstDeliveryAt(), scale));
        m.put("lastSegmentSeconds", at(r.lastDeliveryAt(), scale));
        m.put("clientStallSeconds", scale.toSimSeconds(r.clientIdleNanos()));
        m.put("dials", r.dials());
        m.put("refusals", r.refusals());
        m.put("admissions", r.admissions());
        m.put("failures", r.failures());
        m.put("executionTimeouts", r.executionTimeouts());
        m.put("fatal", r.fatal());
        m.put("reruns", r.reruns());
        return m;
    }

    private static Double at(long wallNanos, TimeScale scale) {
        return wallNanos < 0 ? null : scale.toSimSeconds(wallNanos);
    }

    private static Map<String, Object> row(StrategyMetrics m) {
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("strategy", m.label());
        r.put("tenants", m.tenants());
        r.put("firstSegment", m.firstSegment());
        r.put("meanDelivery", m.meanDelivery());
        r.put("lagP50", m.lagP50());
        r.put("lagP90", m.lagP90());
        r.put("lagMax", m.lagMax());
        r.put("clientStall", m.stall());
        r.put("total", m.total());
        r.put("dials", m.dials());
        r.put("refusals", m.refusals());
        r.put("dialsPerSecond", m.dialsPerSecond());
        r.put("failures", m.failures());
        r.put("reruns", m.reruns());
        r.put("failedRequests", m.failedRequests());
        return r;
    }

    /** numerator / denominator of {@code ratio} for each figure of the table's ratio rows. */
    private static Map<String, Double> figures(ComparisonTable.Ratio ratio) {
        Map<String, Double> r = new LinkedHashMap<>();
        StrategyMetrics o = ratio.numerator();
        StrategyMetrics u = ratio.denominator();
        ratio(r, "firstSegment", o, u, StrategyMetrics::firstSegment);
        ratio(r, "meanDelivery", o, u, StrategyMetrics::meanDelivery);
        ratio(r, "lagP50", o, u, StrategyMetrics::lagP50);
        ratio(r, "lagP90", o, u, StrategyMetrics::lagP90);
        ratio(r, "lagMax", o, u, StrategyMetrics::lagMax);
        ratio(r, "clientStall", o, u, StrategyMetrics::stall);
        ratio(r, "total", o, u, StrategyMetrics::total);
        ratio(r, "dials", o, u, m -> m.dials());
        ratio(r, "refusals", o, u, m -> m.refusals());
        ratio(r, "dialsPerSecond", o, u, StrategyMetrics::dialsPerSecond);
        return r;
    }

    private static void ratio(Map<String, Double> into, String name, StrategyMetrics o, StrategyMetrics u,
            ToDoubleFunction<StrategyMetrics> figure) {
        double a = figure.applyAsDouble(o);
        double b = figure.applyAsDouble(u);
        into.put(name, Double.isNaN(a) || Double.isNaN(b) || b == 0 ? null : a / b);
    }

    private static String number(Double v) {
        return v == null || !Double.isFinite(v) ? "" : String.format(Locale.ROOT, "%.4f", v);
    }

    private static String quoted(String s) {
        return s.contains(",") || s.contains("\"") ? "\"" + s.replace("\"", "\"\"") + "\"" : s;
    }
}
