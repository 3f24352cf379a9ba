package dev.orderly.sim.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * The comparison table: one row per strategy, then the ratio rows (ordered/unordered, ordered/oracle, and waiting
 * room/oracle when the waiting room ran). Plain text, columns aligned, meant for a terminal and for pasting into a
 * README as a code block.
 */
public final class ComparisonTable {

    /** The column headings, in order. */
    public static final List<String> COLUMNS = List.of("strategy", "first segment", "mean delivery", "lag p50",
            "lag p90", "lag max", "client stall", "total", "dials", "refusals", "dials/s", "failures");

    /** The label of the ratio row ordered launch against the baseline. */
    public static final String RATIO_LABEL = "ordered/unordered";

    /** The label of the ratio row ordered launch against the oracle. */
    public static final String ORACLE_RATIO_LABEL = "ordered/oracle";

    /** The label of the ratio row ordered launch with the fleet's waiting room against the oracle. */
    public static final String WAITING_ORACLE_RATIO_LABEL = "waiting room/oracle";

    /**
     * One ratio row: every column of {@code numerator} divided by the same column of {@code denominator}.
     *
     * @param label the row's name
     * @param numerator the row divided
     * @param denominator the row divided by
     */
    public record Ratio(String label, StrategyMetrics numerator, StrategyMetrics denominator) {
        /** @throws NullPointerException naming the field that is null */
        public Ratio {
            Objects.requireNonNull(label, "label");
            Objects.requireNonNull(numerator, "numerator");
            Objects.requireNonNull(denominator, "denominator");
        }
    }

    private final List<StrategyMetrics> rows;
    private final List<Ratio> ratios;

    /**
     * @param rows the rows, in order
     * @param ratios the ratio rows under them, in order
     */
    public ComparisonTable(List<StrategyMetrics> rows, List<Ratio> ratios) {
        this.rows = List.copyOf(rows);
        this.ratios = List.copyOf(ratios);
    }

    /** The table as text, with a header, a rule, the rows, and the ratio rows there are. */
    public String render() {
        List<List<String>> cells = new ArrayList<>();
        cells.add(COLUMNS);
        for (StrategyMetrics m : rows) {
            cells.add(List.of(m.label(), seconds(m.firstSegment()), seconds(m.meanDelivery()), seconds(m.lagP50()),
                    seconds(m.lagP90()), seconds(m.lagMax()), seconds(m.stall()), seconds(m.total()),
                    Long.toString(m.dials()), Long.toString(m.refusals()), number(m.dialsPerSecond()), failures(m)));
        }
        for (Ratio r : ratios) {
            StrategyMetrics o = r.numerator();
            StrategyMetrics u = r.denominator();
            cells.add(List.of(r.label(), ratio(o.firstSegment(), u.firstSegment()),
                    ratio(o.meanDelivery(), u.meanDelivery()), ratio(o.lagP50(), u.lagP50()),
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
            if (r == 1 || (!ratios.isEmpty() && r == rows.size() + 1)) {
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
