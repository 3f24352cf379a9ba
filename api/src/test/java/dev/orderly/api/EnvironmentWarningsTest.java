package dev.orderly.api;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class EnvironmentWarningsTest {

    @Test
    void bugAMistypedVariableWasSilentlyIgnoredSoItNowNamesTheClosestKnownOne() {
        assertEquals(List.of("SUBSTREAMS_WORKER_MAXRETRIES is not a variable Orderly reads; did you mean"
                + " SUBSTREAMS_WORKER_MAX_RETRIES?"),
                EngineConfig.environmentWarnings(Map.of("SUBSTREAMS_WORKER_MAXRETRIES", "3")));
        assertEquals(List.of("ORDERLY_LOOKAHEAD is not a variable Orderly reads; the closest one it reads is"
                + " ORDERLY_LOOKAHEAD_FACTOR"),
                EngineConfig.environmentWarnings(Map.of("ORDERLY_LOOKAHEAD", "3")));
        assertEquals(List.of("ORDERLY_ORDERED_LAUNCHH is not a variable Orderly reads; did you mean"
                        + " ORDERLY_ORDERED_LAUNCH?"),
                EngineConfig.environmentWarnings(Map.of("ORDERLY_ORDERED_LAUNCHH", "true")));
    }

    /**
     * Regression: {@code ORDERLY_SCOPE=threads} was answered "the closest one it reads is ORDERLY_STALL_WARNING": the
     * user had the right name for the wrong place (the scope is the system property {@code orderly.scope}), and the
     * warning sent them elsewhere.
     */
    @Test
    void bugTheScopeSetInTheEnvironmentWasSentToTheStallWarning() {
        assertEquals(List.of("ORDERLY_SCOPE is not a variable Orderly reads; the request scope is the system property"
                + " orderly.scope (-Dorderly.scope=threads)"),
                EngineConfig.environmentWarnings(Map.of("ORDERLY_SCOPE", "threads")));
    }

    @Test
    void knownVariablesOtherProgramsVariablesAndFarOffSharedPrefixesSayNothing() {
        assertEquals(List.of(), EngineConfig.environmentWarnings(Map.of(
                EngineConfig.ENV_MAX_FAILURES, "3", EngineConfig.ENV_ORDERED_LAUNCH, "true",
                "PATH", "/bin", "SUBSTREAMS_API_TOKEN", "secret", "HOME", "/root")));
    }

    @Test
    void oneSentencePerUnknownVariableInTheOrderOfTheirNames() {
        assertEquals(List.of(
                "ORDERLY_SCOPE is not a variable Orderly reads; the request scope is the system property"
                        + " orderly.scope (-Dorderly.scope=threads)",
                "SUBSTREAMS_WORKER_LAUNCH_WINDOW_PERCNT is not a variable Orderly reads; did you mean"
                        + " SUBSTREAMS_WORKER_LAUNCH_WINDOW_PERCENT?"),
                EngineConfig.environmentWarnings(Map.of("SUBSTREAMS_WORKER_LAUNCH_WINDOW_PERCNT", "20",
                        "ORDERLY_SCOPE", "threads")));
    }

    @Test
    void theStallWarningIsAVariableOrderlyReadsAndItsTyposAreNamed() {
        assertEquals(List.of(), EngineConfig.environmentWarnings(Map.of(EngineConfig.ENV_STALL_WARNING, "45s")));
        assertEquals(List.of("ORDERLY_STALL_WARNIGN is not a variable Orderly reads; did you mean"
                + " ORDERLY_STALL_WARNING?"), EngineConfig.environmentWarnings(Map.of("ORDERLY_STALL_WARNIGN", "45s")));
    }

    @Test
    void theEngineWideJobCapIsAVariableOrderlyReadsAndItsTyposAreNamed() {
        assertEquals(List.of(), EngineConfig.environmentWarnings(Map.of(EngineConfig.ENV_MAX_CONCURRENT_JOBS, "32")));
        assertEquals(List.of("SUBSTREAMS_TIER1_MAX_SUBREQUEST is not a variable Orderly reads; did you mean"
                + " SUBSTREAMS_TIER1_MAX_SUBREQUESTS?"),
                EngineConfig.environmentWarnings(Map.of("SUBSTREAMS_TIER1_MAX_SUBREQUEST", "32")));
    }

    @Test
    void everyVariableTheConfigurationDeclaresIsKnownSoNoneIsTakenForATypo() throws Exception {
        java.util.Set<String> declared = new java.util.TreeSet<>();
        for (java.lang.reflect.Field f : EngineConfig.class.getFields()) {
            if (f.getName().startsWith("ENV_") && f.getType() == String.class) {
                declared.add((String) f.get(null));
            }
        }
        assertEquals(declared, new java.util.TreeSet<>(EnvironmentNames.KNOWN));
        java.util.Map<String, String> env = new java.util.HashMap<>();
        declared.forEach(name -> env.put(name, "1"));
        assertEquals(List.of(), EngineConfig.environmentWarnings(env));
    }
    /**
     * Found: a variable written in the wrong case ({@code orderly_ordered_launch=false}: the environment's names are
     * case-sensitive, so it is not read) said nothing, as the prefixes were matched case-sensitively; the setting was
     * lost in silence. It is now named like any other near miss.
     */
    @Test
    void bugAVariableInTheWrongCaseWasSilentlyIgnored() {
        assertEquals(List.of(
                "Substreams_Worker_Max_Retries is not a variable Orderly reads; did you mean"
                        + " SUBSTREAMS_WORKER_MAX_RETRIES?",
                "orderly_ordered_launch is not a variable Orderly reads; did you mean ORDERLY_ORDERED_LAUNCH?"),
                EngineConfig.environmentWarnings(Map.of("orderly_ordered_launch", "false",
                        "Substreams_Worker_Max_Retries", "3")));
        assertEquals(List.of(), EngineConfig.environmentWarnings(Map.of("substreams_api_token", "secret")),
                "another program's variable under the shared prefix, in any case, still says nothing");
    }
}
