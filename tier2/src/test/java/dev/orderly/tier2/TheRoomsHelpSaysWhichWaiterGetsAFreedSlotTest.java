package dev.orderly.tier2;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Regression: {@code tier2 --help} said a freed slot goes to the waiters "tenants in turn, lowest rank first". The
 * room gives it to the waiting tenant with the fewest jobs running on the instance (round robin among equals), and
 * within a request to its lowest segment, whatever the ranks (a rank is as old as its dial): an operator reading the
 * help expected a request's freshest dial, with the lowest rank, to go first.
 */
@Timeout(30)
class TheRoomsHelpSaysWhichWaiterGetsAFreedSlotTest {

    @Test
    void theRoomsHelpSaysFewestRunningFirstThenTheLowestSegment() {
        StringWriter out = new StringWriter();
        int code = Tier2Main.execute(new String[] {"--help"}, new PrintWriter(out, true),
                new PrintWriter(new StringWriter(), true));
        assertEquals(0, code);
        String help = out.toString().replaceAll("\\s+", " ");
        int at = help.indexOf("--room=N Seats"); // the option's own line, not the usage
        assertTrue(at >= 0, help);
        String room = help.substring(at, help.indexOf("--admission-wait", at));
        assertFalse(room.contains("lowest rank first"), room);
        assertTrue(room.contains("fewest jobs running") && room.contains("lowest segment"), room);
    }
}
