package dev.orderly.api;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The environment variables Orderly reads, and what to say about one that looks meant for it but is not one of them
 * (a typo such as {@code SUBSTREAMS_WORKER_MAXRETRIES}, or a known name in the wrong case). The implementation of
 * {@link EngineConfig#environmentWarnings}. Stateless.
 */
final class EnvironmentNames {

    /**
     * Every variable {@link EngineEnvironment} reads. A new one must be added here too; a test compares this list with
     * every {@code ENV_} constant of {@link EngineConfig}.
     */
    static final List<String> KNOWN = List.of(EngineConfig.ENV_LAUNCH_WINDOW_PERCENT,
            EngineConfig.ENV_LAUNCH_WINDOW_MAX, EngineConfig.ENV_REFUSED_DELAY, EngineConfig.ENV_FAILURE_DELAY,
            EngineConfig.ENV_MAX_FAILURES, EngineConfig.ENV_MAX_EXECUTION_TIMEOUTS, EngineConfig.ENV_LOOKAHEAD_FACTOR,
            EngineConfig.ENV_ORDERED_LAUNCH, EngineConfig.ENV_STALL_WARNING, EngineConfig.ENV_MAX_CONCURRENT_JOBS);

    /** Orderly's own prefix: any variable under it that Orderly does not read is worth a warning. */
    static final String OWN_PREFIX = "ORDERLY_";
    /** The prefix Orderly shares with the system it grew out of: only a near miss of a known name is a typo. */
    static final String SHARED_PREFIX = "SUBSTREAMS_";
    /**
     * Names people write for a setting that has no variable, each with where that setting really lives. For these the
     * closest known name would mislead: {@code ORDERLY_SCOPE} is near no variable, and
     * {@code SUBSTREAMS_WORKER_LAUNCH_WINDOW_MIN}'s closest is the max, another setting, which the advice would set to
     * the value meant for the min. Keys in upper case; a name matches in any case.
     */
    static final Map<String, String> SETTINGS_WITHOUT_VARIABLE = Map.of(
            "ORDERLY_SCOPE", "the request scope is the system property orderly.scope (-Dorderly.scope=threads)",
            "SUBSTREAMS_WORKER_LAUNCH_WINDOW_MIN",
            "launchWindowMin has no environment variable: set it with EngineConfig.builder().launchWindowMin(n)");
    /** A name this many edits or fewer from a known one is taken for a typo of it. */
    static final int MAX_TYPO_EDITS = 3;

    private EnvironmentNames() {
    }

    static List<String> warnings(Collection<String> names) {
        List<String> warnings = new ArrayList<>();
        for (String name : names.stream().sorted().toList()) {
            // The prefixes in any case: the environment's names are case-sensitive, so orderly_ordered_launch is not
            // read, and a setting written so would be lost in silence.
            if (KNOWN.contains(name) || !(hasPrefix(name, OWN_PREFIX) || hasPrefix(name, SHARED_PREFIX))) {
                continue;
            }
            String whereItLives = SETTINGS_WITHOUT_VARIABLE.get(name.toUpperCase(Locale.ROOT));
            if (whereItLives != null) {
                warnings.add(name + " is not a variable Orderly reads; " + whereItLives);
                continue;
            }
            Optional<String> typoOf = ClosestName.among(name, KNOWN, MAX_TYPO_EDITS);
            if (typoOf.isPresent()) {
                warnings.add(name + " is not a variable Orderly reads; did you mean " + typoOf.get() + "?");
            } else if (hasPrefix(name, OWN_PREFIX)) {
                warnings.add(name + " is not a variable Orderly reads; the closest one it reads is "
                        + ClosestName.among(name, KNOWN, Integer.MAX_VALUE).orElseThrow());
            }
        }
        return warnings;
    }

    private static boolean hasPrefix(String name, String prefix) {
        return name.regionMatches(true, 0, prefix, 0, prefix.length());
    }
}
