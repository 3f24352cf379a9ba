package dev.orderly.sim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Timeout;

/**
 * {@code orderly fleet bench --help} had no exit-code list while the help of orderly, sweep and fleet has one. Every
 * command's help now lists what it returns: 0, 1 (a tier2 would not start or a measurement failed) and 2 (a bad
 * option or value).
 */
@Timeout(30)
class TheHelpOfEveryCommandListsItsExitCodesTest {

    @ParameterizedTest
    @ValueSource(strings = {"", "sweep", "fleet", "fleet bench"})
    void theHelpListsExitCodesZeroOneAndTwo(String command) {
        String[] args = (command.isEmpty() ? "--help" : command + " --help").split(" ");
        CliRun o = CliRun.of(args);
        assertEquals(0, o.code(), o.err());
        String help = o.out();
        int at = help.indexOf("Exit codes:");
        assertTrue(at >= 0, "an exit-code list in\n" + help);
        String list = help.substring(at);
        for (String code : new String[] {"0", "1", "2"}) {
            assertTrue(list.lines().anyMatch(l -> l.strip().startsWith(code + " ")), code + " in\n" + list);
        }
        assertTrue(list.contains("bad option or value"), list);
    }
}
