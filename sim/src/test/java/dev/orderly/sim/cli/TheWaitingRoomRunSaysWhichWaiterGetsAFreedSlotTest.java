package dev.orderly.sim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Regression: {@code ./orderly} announced the waiting-room run as handing "each free slot to the best waiter, tenants
 * in turn". The room (WaitingRoom, as the guide and {@code tier2 --help} say) gives it to the waiting tenant with the
 * fewest jobs running on the instance, round robin only among equals, and within it to its lowest segment: a tenant
 * with fewer jobs running there takes several freed slots in a row, not one in turn.
 */
@Timeout(60)
class TheWaitingRoomRunSaysWhichWaiterGetsAFreedSlotTest {

    @Test
    void theRunsLineSaysFewestRunningFirstThenTheLowestSegment(@TempDir Path dir) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = OrderlyCommand.execute(new String[] {"--strategy=waiting", "--tenants=1", "--segments=2",
                "--stages=1", "--time-scale=100", "-o", dir.resolve("t.svg").toString()}, Map.of(),
                new PrintWriter(out, true), new PrintWriter(err, true), false);
        assertEquals(0, code, out + "\n" + err);
        String line = out.toString().lines().filter(l -> l.startsWith("run 1/1: ordered + waiting room"))
                .findFirst().orElseThrow(() -> new AssertionError("no run line in: " + out));
        assertFalse(line.contains("tenants in turn"), line);
        assertTrue(line.contains("fewest jobs running") && line.contains("lowest segment"), line);
    }
}
