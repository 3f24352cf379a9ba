package dev.orderly.engine.internal;

import java.util.Arrays;

/** The max-min fair share of a cap among requests of given widths (water-filling), for the cap's tests. */
final class FairShare {

    private FairShare() {
    }

    /**
     * Each request's fair share of {@code cap}: its width if the cap allows everyone theirs, else the level
     * {@code L} with {@code sum(min(width, L)) == cap}, and {@code min(width, L)} for each.
     */
    static double[] of(int cap, int[] widths) {
        int[] sorted = widths.clone();
        Arrays.sort(sorted);
        double left = cap;
        double level = Double.MAX_VALUE;
        for (int i = 0; i < sorted.length; i++) {
            int rest = sorted.length - i;
            if (sorted[i] * (double) rest >= left) {
                level = left / rest;
                break;
            }
            left -= sorted[i];
        }
        double[] fair = new double[widths.length];
        for (int i = 0; i < widths.length; i++) {
            fair[i] = Math.min(widths[i], level);
        }
        return fair;
    }
}
