package dev.orderly.tier2;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code Tier2Main --help} had no exit-code list, while the simulator's commands list theirs. It now lists what the
 * process really ends with: 1 when it cannot start (bind, bucket, worker), 2 for a bad option or no usable worker,
 * and 143 after a SIGTERM has drained it (the JVM's 128 + 15; {@code Tier2ProcessTest} checks it).
 */
@Timeout(30)
class Tier2HelpListsItsExitCodesTest {

    @Test
    void theHelpListsOneTwoAndTheSigtermExit() {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Tier2Main.execute(new String[] {"--help"}, new PrintWriter(out, true), new PrintWriter(err, true));
        assertEquals(0, code, err.toString());
        String help = out.toString();
        int at = help.indexOf("Exit codes:");
        assertTrue(at >= 0, "an exit-code list in\n" + help);
        String list = help.substring(at);
        for (String code2 : new String[] {"1", "2", "143"}) {
            assertTrue(list.lines().anyMatch(l -> l.strip().startsWith(code2 + " ")), code2 + " in\n" + list);
        }
        assertTrue(list.contains("bad option"), list);
        assertTrue(list.contains("SIGTERM"), list);
    }
}
