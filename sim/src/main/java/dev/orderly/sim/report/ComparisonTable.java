package dev.orderly.sim.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * The comparison table: one row per strategy, then the ratios ordered/unordered. Plain text, columns aligned, meant
 * for a terminal and for pasting into a README as a code block.
 */
public final class ComparisonTable {

    /** The column headings, in order. */
    public static final List<String> COLUMNS = List.of("strategy", "first segment", "lag p50", "lag p90", "lag max",
            "client stall", "total", "dials", "refusals", "dials/s", "failures");

    /** The label of the ratio row. */
    public static final String RATIO_LABEL = "ordered/unordered";

    private final List<StrategyMetrics> rows;
    private final Optional<StrategyMetrics> ordered;
    private final Optional<StrategyMetrics> unordered;

    /**
     * @param rows the rows, in order
     * @param ordered the row to divide, when both strategies ran
     * @param unordered the row to divide by, when both strategies ran
     */
    public ComparisonTable(List<StrategyMetrics> rows, Optional<StrategyMetrics> ordered,
                           Optional<StrategyMetrics> unordered) {
        this.rows = List.copyOf(rows);
        this.ordered = Objects.requireNonNull(ordered, "ordered");
        this.unordered = Objects.requireNonNull(unordered, "unordered");
    }

    /** The table as text, with a header, a rule, the rows, and the ratio row when there is one. */
    public String render() {
        List<List<String>> cells = new ArrayList<>();
        cells.add(COLUMNS);
        for (StrategyMetrics m : rows) {
            cells.add(List.of(m.label(), seconds(m.firstSegment()), seconds(m.lagP50()), seconds(m.lagP90()),
                    seconds(m.lagMax()), seconds(m.stall()), seconds(m.total()), Long.toString(m.dials()),
                    Long.toString(m.refusals()), number(m.dialsPerSecond()), failures(m)));
        }
        if (ordered.isPresent() && unordered.isPresent()) {
            StrategyMetrics o = ordered.get();
            StrategyMetrics u = unordered.get();
            cells.add(List.of(RATIO_LABEL, ratio(o.firstSegment(), u.firstSegment()), ratio(o.lagP50(), u.lagP50()),
                    ratio(o.lagP90(), u.lagP90()), ratio(o.lagMax(), u.lagMax()), ratio(o.stall(), u.stall()),
                    ratio(o.total(), u.total()), countRatio(o.dials(), u.dials()),
                    countRatio(o.refusals(), u.refusals()), countRatio(o.dialsPerSecond(), u.dialsPerSecond()), ""));
        }
        int[] width = new int[COLUMNS.size()];
        for (List<String> row : cells) {
            for (int c = 0; c < row.size(); c++) {
                width[c] = Math.max(width[c], row.get(c).length());
            }
        }
        StringBuilder out = new StringBuilder();
        for (int r = 0; r < cells.size(); r++) {
            if (r == 1 || (r == cells.size() - 1 && ordered.isPresent() && unordered.isPresent())) {
                out.append(rule(width)).append('\n');
            }
            List<String> row = cells.get(r);
            StringBuilder line = new StringBuilder();
            for (int c = 0; c < row.size(); c++) {
                if (c == 0) {
                    line.append(pad(row.get(c), width[c], false));
                } else {
                    line.append("  ").append(pad(row.get(c), width[c], true));
                }
            }
            out.append(line.toString().stripTrailing()).append('\n');
        }
        return out.toString();
    }

    private static String rule(int[] width) {
        int total = 0;
        for (int w : width) {
            total += w;
        }
        return "-".repeat(total + 2 * (width.length - 1));
    }

    private static String pad(String s, int width, boolean right) {
        String fill = " ".repeat(width - s.length());
        return right ? fill + s : s + fill;
    }

    /** Simulated seconds: two decimals under 10 s, one above. */
    static String seconds(double s) {
        if (Double.isNaN(s)) {
            return "n/a";
        }
        return String.format(Locale.ROOT, s < 10 ? "%.2fs" : "%.1fs", s);
    }

    private static String number(double v) {
        return Double.isNaN(v) ? "n/a" : String.format(Locale.ROOT, "%.1f", v);
    }

    private static String failures(StrategyMetrics m) {
        String s = Long.toString(m.failures());
        if (m.failedRequests() > 0) {
            s += " (" + m.failedRequests() + " req failed)";
        }
        return s;
    }

    /**
     * Times under this many simulated seconds are below what the table can tell apart (half a default refused
     * delay): a ratio of two of them is noise, so it shows as a dash.
     */
    static final double TIME_FLOOR = 0.05;

    /**
     * {@code a / b} of two times, as {@code 0.25x}: a dash when both are under {@link #TIME_FLOOR}; {@code >Nx},
     * computed on the floor, when only {@code b} is; {@code n/a} when either is unknown.
     */
    static String ratio(double a, double b) {
        if (Double.isNaN(a) || Double.isNaN(b)) {
            return "n/a";
        }
        if (a < TIME_FLOOR && b < TIME_FLOOR) {
            return "-";
        }
        if (b < TIME_FLOOR) {
            return String.format(Locale.ROOT, ">%.0fx", a / TIME_FLOOR);
        }
        return multiple(a / b);
    }

    /** {@code a / b} of two counts, as {@code 0.25x}; {@code n/a} when {@code b} is zero. */
    static String countRatio(double a, double b) {
        return b == 0 ? "n/a" : multiple(a / b);
    }

    private static String multiple(double r) {
        return String.format(Locale.ROOT, r < 0.1 ? "%.3fx" : "%.2fx", r);
    }
}
