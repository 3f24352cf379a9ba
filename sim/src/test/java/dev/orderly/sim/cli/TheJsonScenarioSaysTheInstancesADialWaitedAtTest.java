package dev.orderly.sim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A dial of the waiting-room run waits at {@code min(--wait-at, --instances)} instances: on a fleet of 2 with the
 * default {@code --wait-at=4}, at 2, and the table's heading says "at 2 instances at once". The JSON report's
 * scenario, which carries every setting the heading names, said {@code "waitAt": 4}: a setting the run did not use.
 */
@Timeout(60)
class TheJsonScenarioSaysTheInstancesADialWaitedAtTest {

    @Test
    void aFleetSmallerThanWaitAtIsWhatTheScenarioSays(@TempDir Path dir) {
        CliRun table = CliRun.of("--tenants=1", "--segments=2", "--stages=1", "--time-scale=100",
                "--strategy=waiting", "--instances=2", "-q", "-o", dir.resolve("t.svg").toString());
        assertEquals(0, table.code(), table.err());
        assertTrue(table.out().contains("at 2 instances at once"), table.out());

        CliRun json = CliRun.of("--tenants=1", "--segments=2", "--stages=1", "--time-scale=100",
                "--strategy=waiting", "--instances=2", "--format=json", "-o", dir.resolve("t.svg").toString());
        assertEquals(0, json.code(), json.err());
        String scenario = json.out().substring(json.out().indexOf("\"scenario\""), json.out().indexOf("\"runs\""));
        assertTrue(scenario.contains("\"waitAt\": 2\n"), "the heading says 2 instances, the JSON: " + scenario);
    }
}
