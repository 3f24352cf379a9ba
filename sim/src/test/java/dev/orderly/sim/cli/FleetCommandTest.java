package dev.orderly.sim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code orderly fleet} on a small scenario: real processes, both strategies, the table, no child left behind. Its two
 * runs took 39 s and 70 s at a load of 7 on 2 cores, and the S3 one passed 120 s at a load of 12: the bound leaves a
 * loaded machine room.
 */
@Timeout(300)
class FleetCommandTest {

    @TempDir
    Path dir;

    @Test
    void fleetRunsBothStrategiesOnRealProcessesAndSurvivesAKill() {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = OrderlyCommand.execute(new String[] {"fleet", "-q", "--tenants=2", "--segments=12",
                "--workers=4", "--instances=2", "--slots=2", "--job-duration=1s", "--time-scale=20",
                "--kill-one-at=2s", "--output=" + dir.resolve("t.svg")},
                new PrintWriter(out, true), new PrintWriter(err, true), false);
        assertEquals(0, code, out + "\n" + err);
        assertTrue(out.toString().contains("ordered/unordered"), out.toString());
        assertTrue(out.toString().contains("ordered + waiting room"), out.toString());
        // The room's run is told apart from the others by its settings, as orderly's note says them.
        assertTrue(out.toString().contains("waiting room: in its run, each tier2 process seats 16 dials that ask to"
                + " wait, each up to 5s (250ms wall-clock),"), out.toString());
        assertTrue(ProcessHandle.current().children().noneMatch(ProcessHandle::isAlive),
                "a tier2 process outlived the command");
    }

    @Test
    void fleetWithOutputsInS3RunsOnARealS3ServerAndStopsIt() {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = OrderlyCommand.execute(new String[] {"fleet", "--store=s3", "--tenants=2", "--segments=10",
                "--workers=4", "--instances=2", "--slots=2", "--job-duration=1s", "--time-scale=20",
                "--output=" + dir.resolve("t.svg")},
                new PrintWriter(out, true), new PrintWriter(err, true), false);
        assertEquals(0, code, out + "\n" + err);
        assertTrue(out.toString().contains("outputs in s3://orderly-fleet/ at http://127.0.0.1:"), out.toString());
        assertTrue(out.toString().contains("ordered/unordered"), out.toString());
        assertTrue(ProcessHandle.current().children().noneMatch(ProcessHandle::isAlive),
                "a tier2 or S3Proxy process outlived the command");
    }

    @Test
    void waitAtIsNotAnOptionOfTheRealFleet() {
        StringWriter err = new StringWriter();
        int code = OrderlyCommand.execute(new String[] {"fleet", "--wait-at=2"},
                new PrintWriter(new StringWriter(), true), new PrintWriter(err, true), false);
        assertEquals(2, code);
        assertTrue(err.toString().contains("--wait-at is not an option of orderly fleet"), err.toString());
    }

    @Test
    void unknownStoreIsABadOption() {
        StringWriter err = new StringWriter();
        int code = OrderlyCommand.execute(new String[] {"fleet", "--store=nfs"},
                new PrintWriter(new StringWriter(), true), new PrintWriter(err, true), false);
        assertEquals(2, code);
        assertTrue(err.toString().contains("--store") && err.toString().contains("nfs"), err.toString());
    }

    @Test
    void killOneAtNeedsTwoInstances() {
        StringWriter err = new StringWriter();
        int code = OrderlyCommand.execute(new String[] {"fleet", "--instances=1", "--kill-one-at=1s"},
                new PrintWriter(new StringWriter(), true), new PrintWriter(err, true), false);
        assertEquals(2, code);
        assertTrue(err.toString().contains("--kill-one-at"), err.toString());
        assertEquals(1, err.toString().strip().lines().count(), err.toString());
    }
}
