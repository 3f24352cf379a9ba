package dev.orderly.sim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code orderly sweep} runs ordered launch with the fleet's waiting room at every point and prints its ratios, but
 * its heading named the seed, the delays and the time scale and not one of the room's settings: a sweep with
 * {@code --room=1 --admission-wait=100ms --wait-at=9} printed the very heading of one with the defaults (16 seats, 5s,
 * 4), and a {@code --wait-at} over a point's instances was lowered to them without a word. The heading now says the
 * room's seats, its wait and the instances a dial waits at (at most a point's own), as orderly's note does.
 */
@Timeout(60)
class TheSweepSaysWhichWaitingRoomItRanTest {

    @TempDir
    Path dir;

    private CliRun sweep(String... room) {
        String[] args = new String[] {"sweep", "--job-ratios=5", "--fullness=2", "--tenants=1", "--segments=4",
                "--time-scale=100", "-q", "-o", dir.resolve("sweep.svg").toString()};
        String[] all = new String[args.length + room.length];
        System.arraycopy(args, 0, all, 0, args.length);
        System.arraycopy(room, 0, all, args.length, room.length);
        return CliRun.of(all);
    }

    private static String heading(CliRun o) {
        assertEquals(0, o.code(), o.out() + o.err());
        return o.out().lines().findFirst().orElseThrow();
    }

    @Test
    void theHeadingNamesTheRoomsSeatsWaitAndInstances() {
        String h = heading(sweep("--room=1", "--admission-wait=100ms", "--wait-at=2"));
        assertTrue(h.contains("waiting room of 1 seat, a dial waits up to 100ms at up to 2 instances at once"), h);
    }

    @Test
    void twoSweepsWithDifferentRoomsHaveDifferentHeadings() {
        assertTrue(!heading(sweep("--room=1", "--admission-wait=100ms")).equals(heading(sweep())),
                "the room's settings change what the waiting room's columns measure");
    }

    @Test
    void aSweepWithoutARoomNamesNone() {
        // no room columns, so nothing of a room, as before
        String h = heading(sweep("--admission=refuse"));
        assertTrue(!h.contains("waiting room"), h);
    }
}
