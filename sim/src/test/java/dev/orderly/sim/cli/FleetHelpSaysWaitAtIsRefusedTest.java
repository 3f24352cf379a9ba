package dev.orderly.sim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code orderly fleet --help} listed {@code --wait-at=N} with its range and default like any other option, and said
 * only that {@code --unreachable-rate} is refused; every use of {@code --wait-at} is then exit 2 ("not an option of
 * orderly fleet"). The help now says, where it says the same of {@code --unreachable-rate}, that {@code --wait-at} is
 * refused and why.
 */
@Timeout(30)
class FleetHelpSaysWaitAtIsRefusedTest {

    private static String fleetHelp() {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = OrderlyCommand.execute(new String[] {"fleet", "--help"}, new PrintWriter(out, true),
                new PrintWriter(err, true), false);
        assertEquals(0, code, out + "\n" + err);
        return out.toString();
    }

    /** The command's description: what comes before the first option's line. */
    private static String description(String help) {
        int options = help.indexOf("\n      --segments");
        assertTrue(options > 0, help);
        return help.substring(0, options).replaceAll("\\s+", " ");
    }

    @Test
    void theHelpSaysWaitAtIsRefusedAsItSaysOfUnreachableRate() {
        String description = description(fleetHelp());
        assertTrue(description.contains("--unreachable-rate is refused"), description);
        assertTrue(description.matches(".*--wait-at (is|are) refused.*") || description.contains("and --wait-at are refused"),
                "fleet --help lists --wait-at as an option but does not say that fleet refuses it: " + description);
    }

    @Test
    void andItIsRefused() {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = OrderlyCommand.execute(new String[] {"fleet", "--wait-at=2"}, new PrintWriter(out, true),
                new PrintWriter(err, true), false);
        assertEquals(2, code, out + "\n" + err);
        assertTrue(err.toString().startsWith("orderly: --wait-at is not an option of orderly fleet"), err.toString());
    }
}
