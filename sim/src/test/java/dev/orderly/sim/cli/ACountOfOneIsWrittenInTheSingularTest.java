package dev.orderly.sim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;

/**
 * With one segment, one worker, one instance and one slot the headings read {@code 1 segments}, {@code 1 workers
 * each}, {@code 1 instances x 1 slots (1 slots for 1 workers)}, and the waiting room's note {@code at 1 instances at
 * once ... up to 1 calls}: only tenants and stages were counted in words. Every count the simulator prints now takes
 * the singular at one.
 */
@Timeout(60)
class ACountOfOneIsWrittenInTheSingularTest {

    private static final Pattern ONE_PLURAL = Pattern.compile(
            "\\b1 (segments|workers|instances|slots|seats|calls|tier2 processes|tenants|stages)\\b");

    @Test
    void theOrderlyHeadingAndTheWaitingRoomNoteSayOneInTheSingular(@TempDir Path dir) {
        CliRun run = CliRun.of("--strategy=waiting", "--tenants=1", "--segments=1", "--stages=1", "--workers=1",
                "--instances=1", "--slots=1", "--wait-at=1", "--room=1", "--time-scale=100", "-q",
                "-o", dir.resolve("t.svg").toString());
        assertEquals(0, run.code(), run.out() + "\n" + run.err());
        assertNoOnePlural(run.out());
        assertTrue(run.out().startsWith("orderly: 1 tenant x 1 segment x 1 stage, 1 worker each, on 1 instance"
                + " x 1 slot (1 slot for 1 worker)"), run.out());
    }

    @Test
    void theSweepHeadingSaysOneSlotPerInstance(@TempDir Path dir) {
        CliRun run = CliRun.of("sweep", "--tenants=1", "--segments=1", "--stages=1", "--workers=1", "--slots=1",
                "--fullness=1", "--refused-delay=100ms", "--time-scale=100",
                "-o", dir.resolve("s.svg").toString());
        assertEquals(0, run.code(), run.out() + "\n" + run.err());
        assertNoOnePlural(run.out());
    }

    @Test
    void theMachinesRoomForTier2ProcessesSaysOneCoreInTheSingular() {
        ParameterException e = assertThrows(ParameterException.class, () -> new Tier2ProcessBudget(1, 64L << 30)
                .check(new CommandLine(CommandSpec.create()), "--instances", 9, Integer.MAX_VALUE));
        assertTrue(e.getMessage().endsWith("(8 per core on 1 core)"), e.getMessage());
    }

    private static void assertNoOnePlural(String out) {
        Matcher m = ONE_PLURAL.matcher(out);
        List<String> found = m.results().map(r -> r.group()).toList();
        assertTrue(found.isEmpty(), "counts of one in the plural " + found + " in:\n" + out);
    }
}
