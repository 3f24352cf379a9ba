package dev.orderly.bench.cost;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * One scenario measured on several sides (Orderly, the hand-written executor, variants of either), interleaved: each
 * round runs every side once, in an order rotated from round to round, so that machine noise (other builds on the
 * same cores) lands on every side alike. Warm-up rounds are run first and not counted, at least as many as asked
 * and then more until the JIT is quiet ({@link WarmUp}); the JIT's compile time during the measured rounds is printed
 * with them. It prints each side's
 * median (and range) per figure and, for each ratio asked for, the median of the per-round ratios (and their range):
 * a ratio taken within one round compares runs seconds apart.
 *
 * <p>Not thread-safe; used by the benchmark's main thread.
 */
final class Comparison {

    /** One run of one side; returns one value per figure of the scenario. */
    @FunctionalInterface
    interface Side {
        double[] run() throws Exception;
    }

    /** A figure each run reports; {@code decimals} for printing. */
    record Figure(String name, String unit, int decimals) {
    }

    /** The ratio {@code figure} of side {@code numerator} over side {@code denominator}, printed as {@code label}. */
    record Ratio(String label, int numerator, int denominator, int figure) {
    }

    /** What {@link #run} found: each side's median per figure, and each ratio's median. */
    record Result(String scenario, List<String> sides, List<Figure> figures, double[][] medians,
            List<Ratio> ratios, double[] ratioMedians, double[] ratioMins, double[] ratioMaxes, String loadBefore,
            String loadAfter) {
    }

    private final String name;
    private final List<Figure> figures;
    private final List<String> sideNames = new ArrayList<>();
    private final List<Side> sides = new ArrayList<>();
    private final List<Ratio> ratios = new ArrayList<>();
    // Figures printed after the first one in each round's line, for every side (e.g. the kernel's share of the CPU).
    private final List<Integer> roundFigures = new ArrayList<>();

    Comparison(String name, Figure... figures) {
        this.name = name;
        this.figures = List.of(figures);
    }

    /** Adds a side; returns its index. */
    int side(String sideName, Side side) {
        sideNames.add(sideName);
        sides.add(side);
        return sides.size() - 1;
    }

    /**
     * Prints {@code figure} of every side in each round's line too, after the first figure of every side: {@code
     * round 3:  Orderly 2,780,806  hand-written 4,681,642  | kernel % of CPU: Orderly 1  hand-written 2}.
     */
    Comparison showInRounds(int figure) {
        if (figure < 1 || figure >= figures.size()) {
            throw new IllegalArgumentException("figure " + figure + " of " + figures.size()
                    + " (the first is always shown)");
        }
        roundFigures.add(figure);
        return this;
    }

    Comparison ratio(String label, int numerator, int denominator, int figure) {
        ratios.add(new Ratio(label, numerator, denominator, figure));
        return this;
    }

    /**
     * Runs at least {@code warmups} warm-up rounds (more until the JIT is quiet) and {@code rounds} measured ones;
     * prints and returns the figures.
     */
    Result run(int warmups, int rounds) throws Exception {
        String loadBefore = LoadAverage.now();
        System.out.printf(Locale.ROOT, "%n== %s (load average %s)%n", name, loadBefore);
        String crossCoreBefore = CoreToCore.now();
        int n = sides.size();
        // A warm-up round is a measured round whose figures are dropped: the same order of sides, the same collections.
        int[] warmRound = {0};
        WarmUp.Done warm = WarmUp.run(warmups, () -> {
            for (int j = 0; j < n; j++) {
                System.gc();
                sides.get((j + warmRound[0]) % n).run();
            }
            warmRound[0]++;
        });
        System.out.printf(Locale.ROOT, "  %s%n", warm);
        long compiledBefore = WarmUp.compileMillis();
        double[][][] values = new double[n][figures.size()][rounds];
        for (int round = 0; round < rounds; round++) {
            StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "  round %d:", round + 1));
            for (int j = 0; j < n; j++) {
                int i = (j + round) % n;
                System.gc();
                double[] figure = sides.get(i).run();
                for (int f = 0; f < figures.size(); f++) {
                    values[i][f][round] = figure[f];
                }
            }
            for (int i = 0; i < n; i++) {
                line.append(String.format(Locale.ROOT, "  %s %s", sideNames.get(i),
                        format(values[i][0][round], figures.get(0).decimals())));
            }
            for (int f : roundFigures) {
                Figure figure = figures.get(f);
                line.append(String.format(Locale.ROOT, "  | %s %s:", figure.name(), figure.unit()));
                for (int i = 0; i < n; i++) {
                    line.append(String.format(Locale.ROOT, "  %s %s", sideNames.get(i),
                            format(values[i][f][round], figure.decimals())));
                }
            }
            System.out.println(line);
        }
        System.out.printf(Locale.ROOT, "  the JIT compiled %d ms during the %d measured rounds%n",
                WarmUp.compileMillis() - compiledBefore, rounds);
        System.out.printf(Locale.ROOT, "  %s, before the warm-up; %s, after the rounds%n", crossCoreBefore,
                CoreToCore.now());
        double[][] medians = new double[n][figures.size()];
        for (int i = 0; i < n; i++) {
            System.out.printf(Locale.ROOT, "  %-40s", sideNames.get(i));
            for (int f = 0; f < figures.size(); f++) {
                Figure figure = figures.get(f);
                medians[i][f] = median(values[i][f]);
                System.out.printf(Locale.ROOT, "  %s %s %s (%s-%s)", figure.name(),
                        format(medians[i][f], figure.decimals()), figure.unit(),
                        format(min(values[i][f]), figure.decimals()), format(max(values[i][f]), figure.decimals()));
            }
            System.out.println();
        }
        double[] ratioMedians = new double[ratios.size()];
        double[] ratioMins = new double[ratios.size()];
        double[] ratioMaxes = new double[ratios.size()];
        for (int r = 0; r < ratios.size(); r++) {
            Ratio ratio = ratios.get(r);
            double[] perRound = new double[rounds];
            for (int round = 0; round < rounds; round++) {
                perRound[round] = ratio(values[ratio.numerator()][ratio.figure()][round],
                        values[ratio.denominator()][ratio.figure()][round]);
            }
            double[] known = known(perRound);
            ratioMedians[r] = known.length == 0 ? Double.NaN : median(known);
            ratioMins[r] = known.length == 0 ? Double.NaN : min(known);
            ratioMaxes[r] = known.length == 0 ? Double.NaN : max(known);
            System.out.printf(Locale.ROOT, "  ratio %-44s %s (%s-%s over %d of %d rounds)%n", ratio.label(),
                    format(ratioMedians[r], 3), format(ratioMins[r], 3), format(ratioMaxes[r], 3), known.length,
                    rounds);
        }
        String loadAfter = LoadAverage.now();
        return new Result(name, List.copyOf(sideNames), figures, medians, List.copyOf(ratios), ratioMedians, ratioMins,
                ratioMaxes, loadBefore, loadAfter);
    }

    /**
     * {@code numerator / denominator}, or NaN (printed "n/a") unless both are above 0: a figure of 0 is one too small
     * to measure, not a measurement (the process's CPU clock counts in ticks, 10 ms on Linux, so a run shorter than a
     * tick reads 0), and a ratio of it would print as NaN, Infinity or 0.
     */
    static double ratio(double numerator, double denominator) {
        return numerator > 0 && denominator > 0 ? numerator / denominator : Double.NaN;
    }

    /** The values of {@code ratios} that are known (not NaN). */
    static double[] known(double[] ratios) {
        return Arrays.stream(ratios).filter(v -> !Double.isNaN(v)).toArray();
    }

    /** {@code value} with {@code decimals} decimals and a thousands separator; "n/a" for NaN (a figure not known). */
    static String format(double value, int decimals) {
        if (Double.isNaN(value)) {
            return "n/a";
        }
        return String.format(Locale.ROOT, "%,." + decimals + "f", value);
    }

    static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        int mid = sorted.length / 2;
        return sorted.length % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
    }

    private static double min(double[] values) {
        return Arrays.stream(values).min().orElseThrow();
    }

    private static double max(double[] values) {
        return Arrays.stream(values).max().orElseThrow();
    }
}
