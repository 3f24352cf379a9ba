package dev.orderly.api;

import java.util.Collection;
import java.util.Locale;
import java.util.Optional;

/**
 * Finds the known name a mistyped one was probably meant to be: the one fewest single-letter edits away (insertions,
 * deletions and substitutions, letter case ignored), if it is close enough. {@link EngineConfig#environmentWarnings}
 * names the closest environment variable with it; public so that a command line suggests its options and commands
 * the same way.
 *
 * <p>This class is stateless and thread-safe.
 */
public final class ClosestName {

    private ClosestName() {
    }

    /**
     * The name of {@code known} fewest edits from {@code name} (the first of a tie, in iteration order), if it is at
     * most {@code maxEdits} away; empty when {@code known} is empty or nothing is that close.
     */
    public static Optional<String> among(String name, Collection<String> known, int maxEdits) {
        String best = null;
        int fewest = Integer.MAX_VALUE;
        for (String k : known) {
            int e = edits(name, k);
            if (e < fewest) {
                best = k;
                fewest = e;
            }
        }
        // best is null only when known is empty; fewest is then Integer.MAX_VALUE, which no limit must let through.
        return best != null && fewest <= maxEdits ? Optional.of(best) : Optional.empty();
    }

    /** The Levenshtein distance between {@code a} and {@code b}, letter case ignored. */
    public static int edits(String a, String b) {
        String x = a.toLowerCase(Locale.ROOT);
        String y = b.toLowerCase(Locale.ROOT);
        int[] previous = new int[y.length() + 1];
        int[] current = new int[y.length() + 1];
        for (int j = 0; j <= y.length(); j++) {
            previous[j] = j;
        }
        for (int i = 1; i <= x.length(); i++) {
            current[0] = i;
            for (int j = 1; j <= y.length(); j++) {
                int substitute = previous[j - 1] + (x.charAt(i - 1) == y.charAt(j - 1) ? 0 : 1);
                current[j] = Math.min(substitute, Math.min(previous[j], current[j - 1]) + 1);
            }
            int[] t = previous;
            previous = current;
            current = t;
        }
        return previous[y.length()];
    }
}
