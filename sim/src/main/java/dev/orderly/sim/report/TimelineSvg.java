package dev.orderly.sim.report;

import dev.orderly.sim.fleet.TimeScale;
import dev.orderly.sim.run.JobTrace;
import dev.orderly.sim.run.TenantRecord;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * The picture: one panel per strategy, all on the same time axis. In a panel, x is simulated time and y is the
 * segment (segment 0 at the top); each job of the segment is drawn as its queued (waiting silently in the launch
 * queue), dialing (dialing and being refused) and running spans, one thin lane per stage, and a dot marks the moment
 * the client received the segment. A running span ends dark grey where the engine stopped the job: a higher stage
 * covered its unit, or the request ended. The legend names every colour and, with more than one stage, the lanes. The gap between a segment's last running span and its dot is its delivery lag.
 */
public final class TimelineSvg {

    /** One panel: a title and the tenant whose request it draws. */
    public record Panel(String title, TenantRecord tenant) {
    }

    /** Segments beyond this many are left out of a panel (and the title says so): the picture stays readable. */
    static final int MAX_SEGMENTS = 400;

    private static final String QUEUED = "#c7c7c7";
    private static final String DIALING = "#f28e2b";
    private static final String RUNNING = "#4e79a7";
    private static final String FAILED = "#e15759";
    private static final String CANCELLED = "#8c8c8c";
    private static final String DELIVERED = "#000000";

    private static final int COLUMNS = 2;
    private static final int PLOT_W = 560;
    private static final int PLOT_H = 420;
    private static final int LEFT = 64;
    private static final int RIGHT = 24;
    private static final int TOP = 44;
    private static final int BOTTOM = 48;
    private static final int PANEL_W = LEFT + PLOT_W + RIGHT;
    private static final int PANEL_H = TOP + PLOT_H + BOTTOM;
    /** Height of the heading line; the legend's lines follow it. */
    private static final int HEADING = 30;
    private static final int LEGEND_LINE = 18;
    /** A rough width of one character of the 12-pixel sans-serif text, to wrap the legend. */
    private static final int CHAR_W = 6;
    /** The same for the 15-pixel bold heading. */
    private static final double HEADING_CHAR_W = 8.5;

    private final String heading;
    private final List<Panel> panels;
    private final int stages;
    private final TimeScale timeScale;

    /**
     * @param heading a line over the panels (the scenario)
     * @param panels the panels, drawn left to right, two per row
     * @param stages stages per segment, for the lanes
     * @param timeScale converts the traces' wall-clock nanoseconds to simulated seconds
     */
    public TimelineSvg(String heading, List<Panel> panels, int stages, TimeScale timeScale) {
        if (panels.isEmpty()) {
            throw new IllegalArgumentException("a picture needs at least one panel");
        }
        this.heading = heading;
        this.panels = List.copyOf(panels);
        this.stages = stages;
        this.timeScale = timeScale;
    }

    /** Writes the picture to {@code file}, creating its directory if needed. */
    public void write(Path file) throws IOException {
        SvgFile.write(file, render());
    }

    /** The picture as an SVG document. */
    public String render() {
        double maxSeconds = 0;
        for (Panel p : panels) {
            for (JobTrace j : p.tenant().jobs()) {
                maxSeconds = Math.max(maxSeconds, sec(j.endedAt()));
            }
            maxSeconds = Math.max(maxSeconds, sec(p.tenant().lastDeliveryAt()));
        }
        maxSeconds = Math.max(maxSeconds, 1e-3);
        int rows = (panels.size() + COLUMNS - 1) / COLUMNS;
        int cols = Math.min(COLUMNS, panels.size());
        // At least as wide as the heading: one panel alone (648 px) is narrower than a scenario's heading line.
        int width = Math.max(cols * PANEL_W, 24 + (int) Math.ceil(HEADING_CHAR_W * heading.length()));
        List<LegendItem> legend = legendItems();
        int legendLines = legendLines(legend, width);
        int header = HEADING + legendLines * LEGEND_LINE + 8;
        int height = header + rows * PANEL_H;
        StringBuilder svg = new StringBuilder(64 * 1024);
        svg.append("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
        svg.append(String.format(Locale.ROOT,
                "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
                        + "font-family=\"sans-serif\" font-size=\"12\">%n", width, height, width, height));
        svg.append(String.format(Locale.ROOT, "<rect width=\"%d\" height=\"%d\" fill=\"#ffffff\"/>%n", width, height));
        svg.append(String.format(Locale.ROOT, "<text x=\"12\" y=\"22\" font-size=\"15\" font-weight=\"bold\">%s</text>%n",
                escape(heading)));
        legend(svg, legend, width, HEADING + 16);
        for (int i = 0; i < panels.size(); i++) {
            int x0 = (i % COLUMNS) * PANEL_W;
            int y0 = header + (i / COLUMNS) * PANEL_H;
            panel(svg, panels.get(i), x0, y0, maxSeconds);
        }
        svg.append("</svg>\n");
        return svg.toString();
    }

    /** One entry of the legend: a swatch ({@code BAR}, {@code DOT} or {@code LANES}) in a colour, and its words. */
    private record LegendItem(String swatch, String colour, String text) {
        int width() {
            return 26 + CHAR_W * text.length();
        }
    }

    /** Every colour the panels use, the delivery dot, and (with more than one stage) how a segment's row is split. */
    private List<LegendItem> legendItems() {
        List<LegendItem> items = new java.util.ArrayList<>(List.of(
                new LegendItem("BAR", QUEUED, "queued (silent, in the launch queue)"),
                new LegendItem("BAR", DIALING, "dialing (refused, redialing)"),
                new LegendItem("BAR", RUNNING, "running"),
                new LegendItem("BAR", FAILED, "running, then failed"),
                new LegendItem("BAR", CANCELLED, "running, then stopped: a higher stage covered it, or the request"
                        + " ended"),
                new LegendItem("DOT", DELIVERED, "segment delivered to the client")));
        if (stages > 1) {
            items.add(new LegendItem("LANES", RUNNING, "one row per segment, one thin lane per stage in it (stage "
                    + (stages - 1) + " on top, stage 0 at the bottom)"));
        }
        return items;
    }

    private static int legendLines(List<LegendItem> items, int width) {
        int lines = 1;
        int cx = 12;
        for (LegendItem item : items) {
            if (cx > 12 && cx + item.width() > width - 12) {
                lines++;
                cx = 12;
            }
            cx += item.width() + 12;
        }
        return lines;
    }

    private void legend(StringBuilder svg, List<LegendItem> items, int width, int firstY) {
        int cx = 12;
        int y = firstY;
        for (LegendItem item : items) {
            if (cx > 12 && cx + item.width() > width - 12) {
                y += LEGEND_LINE;
                cx = 12;
            }
            switch (item.swatch()) {
                case "DOT" -> svg.append(String.format(Locale.ROOT, "<circle cx=\"%d\" cy=\"%d\" r=\"3\" fill=\"%s\"/>",
                        cx + 7, y - 4, item.colour()));
                case "LANES" -> {
                    for (int lane = 0; lane < 3; lane++) {
                        svg.append(String.format(Locale.ROOT,
                                "<rect x=\"%d\" y=\"%.1f\" width=\"14\" height=\"2.5\" fill=\"%s\"/>", cx, y - 10 + lane * 3.5,
                                item.colour()));
                    }
                }
                default -> svg.append(String.format(Locale.ROOT,
                        "<rect x=\"%d\" y=\"%d\" width=\"14\" height=\"10\" fill=\"%s\"/>", cx, y - 9, item.colour()));
            }
            svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\">%s</text>%n", cx + 18, y,
                    escape(item.text())));
            cx += item.width() + 12;
        }
    }

    private void panel(StringBuilder svg, Panel p, int x0, int y0, double maxSeconds) {
        TenantRecord t = p.tenant();
        int segments = Math.min(t.segments(), MAX_SEGMENTS);
        String title = p.title() + (t.segments() > MAX_SEGMENTS
                ? " (first " + MAX_SEGMENTS + " of " + t.segments() + " segments)" : "");
        int px = x0 + LEFT;
        int py = y0 + TOP;
        double rowH = (double) PLOT_H / segments;
        double laneH = rowH / Math.max(1, stages);
        svg.append(String.format(Locale.ROOT, "<g id=\"panel-%s\" class=\"panel\">%n", id(p.title())));
        svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" font-size=\"13\" font-weight=\"bold\">%s</text>%n",
                px, y0 + 24, escape(title)));
        svg.append(String.format(Locale.ROOT,
                "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"#fafafa\" stroke=\"#999999\"/>%n",
                px, py, PLOT_W, PLOT_H));
        axes(svg, px, py, segments, maxSeconds);
        for (JobTrace j : t.jobs()) {
            if (j.key().segment() >= segments) {
                continue;
            }
            double y = py + j.key().segment() * rowH + (stages - 1 - Math.min(j.key().stage(), stages - 1)) * laneH;
            long runStart = j.admittedAt() >= 0 ? j.admittedAt() : j.endedAt();
            long dialStart = j.firstDialAt() >= 0 ? j.firstDialAt() : runStart;
            if (j.queuedAt() >= 0) {
                span(svg, px, y, laneH, j.queuedAt(), dialStart, maxSeconds, QUEUED);
            }
            if (j.firstDialAt() >= 0) {
                span(svg, px, y, laneH, j.firstDialAt(), runStart, maxSeconds, DIALING);
            }
            if (j.admittedAt() >= 0) {
                String colour = switch (j.ending()) {
                    case DONE -> RUNNING;
                    case FAILED -> FAILED;
                    case ABANDONED, CANCELLED -> CANCELLED;
                };
                span(svg, px, y, laneH, j.admittedAt(), j.endedAt(), maxSeconds, colour);
            }
        }
        double r = Math.max(1.0, Math.min(3.0, rowH / 2));
        for (int s = 0; s < segments; s++) {
            long at = t.deliveredAt()[s];
            if (at >= 0) {
                svg.append(String.format(Locale.ROOT, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"%.1f\" fill=\"%s\"/>%n",
                        px + x(at, maxSeconds), py + (s + 0.5) * rowH, r, DELIVERED));
            }
        }
        svg.append("</g>\n");
    }

    private void axes(StringBuilder svg, int px, int py, int segments, double maxSeconds) {
        double step = niceStep(maxSeconds / 8);
        for (double s = 0; s <= maxSeconds + 1e-9; s += step) {
            double x = px + s / maxSeconds * PLOT_W;
            svg.append(String.format(Locale.ROOT,
                    "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#e3e3e3\"/>"
                            + "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%s</text>%n",
                    x, py, x, py + PLOT_H, x, py + PLOT_H + 15, tick(s, step)));
        }
        svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">time (simulated seconds)</text>%n",
                px + PLOT_W / 2, py + PLOT_H + 36));
        double segStep = Math.max(1, niceStep(segments / 10.0));
        for (double s = 0; s < segments; s += segStep) {
            double y = py + (s + 0.5) * PLOT_H / segments;
            svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%d</text>%n",
                    px - 6, y + 4, (long) s));
        }
        svg.append(String.format(Locale.ROOT,
                "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\" transform=\"rotate(-90 %d %d)\">segment</text>%n",
                px - 44, py + PLOT_H / 2, px - 44, py + PLOT_H / 2));
    }

    private void span(StringBuilder svg, int px, double y, double h, long from, long to, double maxSeconds,
                      String colour) {
        if (to <= from) {
            return;
        }
        double x1 = x(from, maxSeconds);
        double w = Math.max(0.5, x(to, maxSeconds) - x1);
        svg.append(String.format(Locale.ROOT, "<rect x=\"%.1f\" y=\"%.2f\" width=\"%.1f\" height=\"%.2f\" fill=\"%s\"/>%n",
                px + x1, y, w, Math.max(0.4, h * 0.85), colour));
    }

    private double x(long nanos, double maxSeconds) {
        return sec(nanos) / maxSeconds * PLOT_W;
    }

    private double sec(long nanos) {
        return nanos < 0 ? 0 : timeScale.toSimSeconds(nanos);
    }

    private static double niceStep(double raw) {
        if (raw <= 0) {
            return 1;
        }
        double mag = Math.pow(10, Math.floor(Math.log10(raw)));
        double f = raw / mag;
        return (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10) * mag;
    }

    /**
     * A tick's time with as many decimals as its step needs: one decimal wrote the ticks of a run shorter than half a
     * second, 0.01 s apart, as "0.0, 0.0, 0.0, 0.0, 0.1, 0.1".
     */
    private static String tick(double s, double step) {
        if (s == Math.rint(s)) {
            return Long.toString((long) s);
        }
        int decimals = Math.max(1, (int) Math.ceil(-Math.log10(step) - 1e-9));
        return String.format(Locale.ROOT, "%." + decimals + "f", s);
    }

    private static String id(String title) {
        return title.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "-");
    }

    static String escape(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
