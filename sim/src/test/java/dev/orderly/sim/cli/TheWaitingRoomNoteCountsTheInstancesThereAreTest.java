package dev.orderly.sim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --wait-at} larger than {@code --instances} is taken, and a dial waits at every instance there is (the
 * simulated fleet takes the smaller of the two); but the note under the table said {@code at 4 instances at once ...
 * up to 4 calls} on a fleet of 2. It now says what ran: the smaller number.
 */
@Timeout(60)
class TheWaitingRoomNoteCountsTheInstancesThereAreTest {

    @Test
    void aDialOnAFleetOfTwoWaitsAtTwoInstancesNotFour(@TempDir Path dir) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = OrderlyCommand.execute(new String[] {"--strategy=waiting", "--instances=2", "--wait-at=4",
                "--tenants=1", "--segments=2", "--stages=1", "--time-scale=100", "-q",
                "-o", dir.resolve("t.svg").toString()}, Map.of(), new PrintWriter(out, true),
                new PrintWriter(err, true), false);
        assertEquals(0, code, out + "\n" + err);
        String note = out.toString().lines().filter(l -> l.startsWith("waiting room:")).findFirst().orElseThrow();
        assertTrue(note.contains("at 2 instances at once") && note.contains("up to 2 calls"),
                "a fleet of 2 instances, but the note says: " + note);
    }
}
