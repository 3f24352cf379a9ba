package dev.orderly.sim.report;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.TreeSet;
import java.util.function.ToDoubleFunction;

/**
 * The sweep's picture: one panel per measure (mean delivery, first segment, total). In a panel x is the job duration
 * as a multiple of the refused delay (log scale) and y the ratio; each fleet fullness gets a colour, with a solid line
 * for ordered/unordered (under 1: ordered launch wins) and a dashed line for ordered/oracle (1 is the limit). A grey
 * line marks 1.
 */
public final class SweepChart {

    private static final String[] COLOURS = {"#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#b07aa1", "#76b7b2",
        "#edc948", "#9c755f"};
    private static final int PLOT_W = 360;
    private static final int PLOT_H = 300;
    private static final int LEFT = 56;
    private static final int RIGHT = 16;
    private static final int TOP = 40;
    private static final int BOTTOM = 48;
    private static final int PANEL_W = LEFT + PLOT_W + RIGHT;
    private static final int PANEL_H = TOP + PLOT_H + BOTTOM;
    private static final int HEADER = 44;
    private static final int LEGEND = 84;

    private final String heading;
    private final List<SweepPoint> points;

    /**
     * @param heading a line over the panels (the scenario)
     * @param points the sweep's points, in any order
     */
    public SweepChart(String heading, List<SweepPoint> points) {
        if (points.isEmpty()) {
            throw new IllegalArgumentException("a chart needs at least one point");
        }
        this.heading = heading;
        this.points = List.copyOf(points);
    }

    /** Writes the chart to {@code file}, creating its directory if needed. */
    public void write(Path file) throws IOException {
        SvgFile.write(file, render());
    }

    /** The chart as an SVG document. */
    public String render() {
        TreeSet<Double> xs = new TreeSet<>();
        TreeSet<Double> fullness = new TreeSet<>();
        double yMax = 1.2;
        for (SweepPoint p : points) {
            xs.add(p.jobPerRefusedDelay());
            fullness.add(p.fullness());
            for (SweepPoint.Measure m : SweepPoint.Measure.values()) {
                yMax = Math.max(yMax, finite(p.orderedOverUnordered(m)));
                yMax = Math.max(yMax, finite(p.orderedOverOracle(m)));
            }
        }
        yMax = Math.ceil(yMax * 5) / 5;
        SweepPoint.Measure[] measures = SweepPoint.Measure.values();
        int width = measures.length * PANEL_W;
        int height = HEADER + PANEL_H + LEGEND;
        StringBuilder svg = new StringBuilder();
        svg.append(String.format(Locale.ROOT, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\""
                + " viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" font-size=\"12\">%n", width, height, width, height));
        svg.append(String.format(Locale.ROOT, "<rect width=\"%d\" height=\"%d\" fill=\"white\"/>%n", width, height));
        svg.append(String.format(Locale.ROOT, "<text x=\"12\" y=\"22\" font-size=\"14\">%s</text>%n",
                TimelineSvg.escape(heading)));
        double xMin = Math.log(xs.first());
        double xSpan = Math.max(1e-9, Math.log(xs.last()) - xMin);
        for (int m = 0; m < measures.length; m++) {
            int x0 = m * PANEL_W + LEFT;
            int y0 = HEADER + TOP;
            panel(svg, measures[m], x0, y0, xs, fullness, xMin, xSpan, yMax);
        }
        legend(svg, fullness, HEADER + PANEL_H + 16);
        svg.append("</svg>\n");
        return svg.toString();
    }

    private void panel(StringBuilder svg, SweepPoint.Measure measure, int x0, int y0, TreeSet<Double> xs,
                       TreeSet<Double> fullness, double xMin, double xSpan, double yMax) {
        // The title is the measure alone: the line styles are explained once, in the legend, so that a title fits
        // over its own panel instead of running into the next one.
        svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" font-size=\"13\" font-weight=\"bold\">%s</text>%n",
                x0, y0 - 14, TimelineSvg.escape(measure.label())));
        svg.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\""
                + " stroke=\"#999\"/>%n", x0, y0, PLOT_W, PLOT_H));
        for (double y = 0; y <= yMax + 1e-9; y += yMax > 3 ? 1 : 0.2) {
            int py = yPixel(y, y0, yMax);
            svg.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"%s\"/>%n",
                    x0, py, x0 + PLOT_W, py, Math.abs(y - 1) < 1e-9 ? "#555" : "#eee"));
            svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">%.1f</text>%n",
                    x0 - 6, py + 4, y));
        }
        for (double x : xs) {
            int px = xPixel(x, x0, xMin, xSpan);
            svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">%s</text>%n",
                    px, y0 + PLOT_H + 16, number(x)));
        }
        svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">job duration /"
                + " refused delay</text>%n", x0 + PLOT_W / 2, y0 + PLOT_H + 36));
        int c = 0;
        for (double f : fullness) {
            String colour = COLOURS[c++ % COLOURS.length];
            List<SweepPoint> line = points.stream().filter(p -> p.fullness() == f)
                    .sorted(java.util.Comparator.comparingDouble(SweepPoint::jobPerRefusedDelay)).toList();
            polyline(svg, line, p -> p.orderedOverUnordered(measure), colour, "", x0, y0, xMin, xSpan, yMax);
            polyline(svg, line, p -> p.orderedOverOracle(measure), colour, " stroke-dasharray=\"6 4\"", x0, y0, xMin,
                    xSpan, yMax);
        }
    }

    private static void polyline(StringBuilder svg, List<SweepPoint> line, ToDoubleFunction<SweepPoint> ratio,
                                 String colour, String dash, int x0, int y0, double xMin, double xSpan, double yMax) {
        StringBuilder pts = new StringBuilder();
        for (SweepPoint p : line) {
            double r = ratio.applyAsDouble(p);
            if (Double.isFinite(r)) {
                int px = xPixel(p.jobPerRefusedDelay(), x0, xMin, xSpan);
                int py = yPixel(r, y0, yMax);
                pts.append(px).append(',').append(py).append(' ');
                svg.append(String.format(Locale.ROOT, "<circle cx=\"%d\" cy=\"%d\" r=\"2.5\" fill=\"%s\"/>%n",
                        px, py, colour));
            }
        }
        svg.append(String.format(Locale.ROOT, "<polyline points=\"%s\" fill=\"none\" stroke=\"%s\""
                + " stroke-width=\"2\"%s/>%n", pts.toString().strip(), colour, dash));
    }

    private void legend(StringBuilder svg, TreeSet<Double> fullness, int y) {
        int x = 12;
        int c = 0;
        for (double f : fullness) {
            String colour = COLOURS[c++ % COLOURS.length];
            svg.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"%s\""
                    + " stroke-width=\"3\"/><text x=\"%d\" y=\"%d\">fleet %sx full</text>%n",
                    x, y, x + 24, y, colour, x + 30, y + 4, number(f)));
            x += 150;
        }
        int ly = y + 26;
        svg.append(String.format(Locale.ROOT, "<line x1=\"12\" y1=\"%d\" x2=\"36\" y2=\"%d\" stroke=\"#555\""
                + " stroke-width=\"2\"/><text x=\"42\" y=\"%d\">solid: ordered launch / the unordered baseline"
                + " (under 1: ordered launch wins)</text>%n", ly, ly, ly + 4));
        ly += 20; // a line of its own: two explanations side by side ran into each other
        svg.append(String.format(Locale.ROOT, "<line x1=\"12\" y1=\"%d\" x2=\"36\" y2=\"%d\" stroke=\"#555\""
                + " stroke-width=\"2\" stroke-dasharray=\"6 4\"/><text x=\"42\" y=\"%d\">dashed: ordered launch /"
                + " the oracle, a perfect central dispatcher (1: at the limit)</text>%n", ly, ly, ly + 4));
    }

    private static int xPixel(double x, int x0, double xMin, double xSpan) {
        return x0 + (int) Math.round((Math.log(x) - xMin) / xSpan * PLOT_W);
    }

    private static int yPixel(double y, int y0, double yMax) {
        return y0 + PLOT_H - (int) Math.round(Math.min(y, yMax) / yMax * PLOT_H);
    }

    private static double finite(double v) {
        return Double.isFinite(v) ? v : 0;
    }

    private static String number(double v) {
        return v == Math.rint(v) ? Long.toString((long) v) : String.format(Locale.ROOT, "%s", v);
    }
}
