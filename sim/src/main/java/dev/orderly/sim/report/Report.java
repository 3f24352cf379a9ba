package dev.orderly.sim.report;

import dev.orderly.sim.run.RunResult;
import dev.orderly.sim.run.Strategy;
import dev.orderly.sim.run.TenantResult;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Turns the runs of a comparison into what the command shows: the table's rows (one per strategy; a mixed run gives
 * one row for its ordered tenant and one for its unordered tenants), the ratios ordered/unordered, ordered/oracle and
 * waiting room/oracle,
 * the picture's panels, and plain-sentence notes on the mixed run and on any request that failed. Every sentence is built from the
 * measured numbers; none is fixed text about who wins.
 */
public final class Report {

    private final List<StrategyMetrics> rows = new ArrayList<>();
    private final List<TimelineSvg.Panel> panels = new ArrayList<>();
    private final List<String> notes = new ArrayList<>();
    private Optional<StrategyMetrics> ordered = Optional.empty();
    private Optional<StrategyMetrics> unordered = Optional.empty();
    private Optional<StrategyMetrics> oracle = Optional.empty();
    private Optional<StrategyMetrics> waiting = Optional.empty();

    /** The report of {@code runs}, in the order they ran. */
    public Report(List<RunResult> runs) {
        for (RunResult run : runs) {
            List<TenantResult> orderedTenants = run.tenants().stream()
                    .filter(t -> t.record().strategy().ordered()).toList();
            List<TenantResult> unorderedTenants = tenants(run, Strategy.UNORDERED);
            if (orderedTenants.isEmpty() || unorderedTenants.isEmpty()) {
                StrategyMetrics m = StrategyMetrics.of(run.spec().name(), run, run.tenants());
                rows.add(m);
                switch (run.tenants().getFirst().record().strategy()) {
                    case ORDERED -> ordered = Optional.of(m);
                    case UNORDERED -> unordered = Optional.of(m);
                    case ORACLE -> oracle = Optional.of(m);
                    case WAITING -> waiting = Optional.of(m);
                }
                panels.add(new TimelineSvg.Panel(run.spec().name() + ": tenant-1 of " + run.tenants().size(),
                        run.tenants().getFirst().record()));
            } else {
                String orderedKind = orderedTenants.getFirst().record().strategy().label();
                StrategyMetrics o = StrategyMetrics.of(run.spec().name() + ": " + orderedTenants.size() + " "
                        + orderedKind, run, orderedTenants);
                StrategyMetrics u = StrategyMetrics.of(run.spec().name() + ": " + unorderedTenants.size()
                        + " unordered", run, unorderedTenants);
                rows.add(o);
                rows.add(u);
                TenantResult firstOrdered = orderedTenants.getFirst();
                TenantResult firstUnordered = unorderedTenants.getFirst();
                panels.add(new TimelineSvg.Panel(run.spec().name() + ": " + firstOrdered.record().tenant()
                        + " (" + orderedKind + ")", firstOrdered.record()));
                panels.add(new TimelineSvg.Panel(run.spec().name() + ": " + firstUnordered.record().tenant()
                        + " (unordered)", firstUnordered.record()));
                notes.add(mixedNote(o, u));
            }
            for (TenantResult t : run.tenants()) {
                t.failure().ifPresent(f -> notes.add(run.spec().name() + " run: " + t.record().tenant() + " ("
                        + t.record().strategy().label() + ") failed: " + f));
            }
        }
    }

    private static List<TenantResult> tenants(RunResult run, Strategy strategy) {
        return run.tenants().stream().filter(t -> t.record().strategy() == strategy).toList();
    }

    /**
     * The mixed run in one sentence whose every comparison word (sooner, later, fewer, more, done, failed) is chosen
     * from the numbers it quotes, so that the words cannot contradict them.
     */
    static String mixedNote(StrategyMetrics o, StrategyMetrics u) {
        String first = String.format(Locale.ROOT, "got its first segment after %s, %s the unordered tenants (%s on"
                        + " average)", ComparisonTable.seconds(o.firstSegment()),
                compare(o.firstSegment(), u.firstSegment(), "sooner than", "later than", "about as soon as"),
                ComparisonTable.seconds(u.firstSegment()));
        String end = o.failedRequests() > 0
                ? "failed after " + ComparisonTable.seconds(o.total())
                : "was done after " + ComparisonTable.seconds(o.total());
        String others = u.failedRequests() > 0
                ? u.failedRequests() + " of " + u.tenants() + " unordered tenants failed"
                : "the last unordered tenant: " + ComparisonTable.seconds(u.total());
        double ordRate = o.dialsPerSecond() / o.tenants();
        double unordRate = u.dialsPerSecond() / u.tenants();
        String dials = String.format(Locale.ROOT, "sent %.1f dials/s against %.1f per unordered tenant (%s)",
                ordRate, unordRate, compare(ordRate, unordRate,
                        "fewer: its launch queue keeps all but a few of its jobs silent",
                        "more: its window kept redialing while the others' jobs ran", "about as many"));
        return "mixed run: the ordered tenant " + first + ", " + end + " (" + others + "), and " + dials + ".";
    }

    /** {@code lower} if {@code a} is under {@code b} by more than 5 %, {@code higher} if over, else {@code same}. */
    private static String compare(double a, double b, String lower, String higher, String same) {
        if (Double.isNaN(a) || Double.isNaN(b)) {
            return "against";
        }
        if (a < b * 0.95) {
            return lower;
        }
        return a > b * 1.05 ? higher : same;
    }

    /** The table's rows, in order. */
    public List<StrategyMetrics> rows() {
        return List.copyOf(rows);
    }

    /**
     * The table, with a ratio row for each of the unordered and oracle runs that ran beside an ordered one, and one of
     * the waiting room's run against the oracle.
     */
    public ComparisonTable table() {
        return new ComparisonTable(rows, ratios());
    }

    /**
     * The table's ratio rows, in its order: ordered/unordered and ordered/oracle for each of the unordered and oracle
     * runs that ran beside an ordered one, then waiting room/oracle. The CSV and JSON reports carry these same rows,
     * so that a script sees every comparison a person does.
     */
    public List<ComparisonTable.Ratio> ratios() {
        List<ComparisonTable.Ratio> ratios = new ArrayList<>();
        ordered.ifPresent(o -> {
            unordered.ifPresent(u -> ratios.add(new ComparisonTable.Ratio(ComparisonTable.RATIO_LABEL, o, u)));
            oracle.ifPresent(x -> ratios.add(new ComparisonTable.Ratio(ComparisonTable.ORACLE_RATIO_LABEL, o, x)));
        });
        waiting.ifPresent(w -> oracle.ifPresent(
                x -> ratios.add(new ComparisonTable.Ratio(ComparisonTable.WAITING_ORACLE_RATIO_LABEL, w, x))));
        return ratios;
    }

    /** The picture's panels, one per strategy (two for a mixed run). */
    public List<TimelineSvg.Panel> panels() {
        return List.copyOf(panels);
    }

    /** Sentences on the mixed run and on failed requests. */
    public List<String> notes() {
        return List.copyOf(notes);
    }

    /** The row of the all-ordered run, when there was one: the numerator of the ratios. */
    public Optional<StrategyMetrics> orderedRow() {
        return ordered;
    }

    /** The row of the run whose every tenant used the waiting room, when there was one. */
    public Optional<StrategyMetrics> waitingRow() {
        return waiting;
    }

    /** The row of the oracle's run, when there was one. */
    public Optional<StrategyMetrics> oracleRow() {
        return oracle;
    }

    /** The row of the all-unordered run, when there was one: the denominator of the ratios. */
    public Optional<StrategyMetrics> unorderedRow() {
        return unordered;
    }
}
