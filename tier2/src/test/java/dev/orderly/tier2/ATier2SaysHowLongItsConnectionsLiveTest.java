package dev.orderly.tier2;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A tier1 on {@code dns:///} never dialed a tier2 added after it started while its connections stayed healthy
 * (ATier2AddedToAHealthyFleetIsDialedTest, module grpc): the launcher now ends each client connection after
 * {@code --max-connection-age}, 2 minutes unless given, so the client looks the name up again. The option is checked
 * and listed as the other durations are.
 */
@Timeout(30)
class ATier2SaysHowLongItsConnectionsLiveTest {

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "--max-connection-age=0s|tier2: --max-connection-age must be > 0, was 0s (see --help)",
        "--max-connection-age=-1.5s|tier2: --max-connection-age must be > 0, was -1.5s (see --help)",
        "--max-connection-age=soon|tier2: --max-connection-age: 'soon' is not a duration"})
    void aMaxConnectionAgeThatIsNotAPositiveDurationIsOneLineNamingIt(String option, String said) {
        Tier2MainTest.Run r = Tier2MainTest.run("--outputs=target/tier2-age-test", "--worker=" + TestWorkers.Echo.class.getName(), option);
        assertEquals(2, r.code(), r.err());
        assertEquals(1, r.err().lines().count(), r.err());
        assertTrue(r.err().startsWith(said), r.err());
    }

    @Test
    void theHelpListsItWithItsDefault() {
        Tier2MainTest.Run r = Tier2MainTest.run("--help");
        assertEquals(0, r.code(), r.err());
        String help = r.out().replaceAll("\\s+", " ");
        assertTrue(help.contains("--max-connection-age=DURATION"), r.out());
        assertTrue(help.contains("within about this; > 0 (default: 2m)"), r.out());
    }
}
