package dev.orderly.sim.tier2;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orderly.tier2.JobWorkerProvider;
import dev.orderly.tier2.Tier2Main;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import java.util.ServiceLoader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The simulator's worker is the one provider {@code Tier2Main} finds on the simulator's class path, and the simulated
 * work and fault options reach it: a bad one ends the process with exit code 2 and one line naming it.
 */
@Timeout(30)
class SimulatedWorkerProviderTest {

    @Test
    void theSimulatorRegistersExactlyOneProvider() {
        List<JobWorkerProvider> found = ServiceLoader.load(JobWorkerProvider.class).stream()
                .map(ServiceLoader.Provider::get).toList();
        assertEquals(1, found.size(), found.toString());
        assertInstanceOf(SimulatedWorkerProvider.class, found.getFirst());
    }

    @Test
    void optionsMakeASimulatedWorker() {
        assertInstanceOf(SimulatedJobWorker.class, new SimulatedWorkerProvider().create(List.of("--stages=3",
                "--job-duration=250ms", "--seed=7", "--time-scale=100")));
    }

    @Test
    void faultRatesOverOneAreRejectedByName() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new SimulatedWorkerProvider().create(List.of("--retryable-rate=0.6", "--fatal-rate=0.6")));
        assertTrue(e.getMessage().contains("at most 1"), e.getMessage());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "--retryable-rate=1.5|--retryable-rate",
        "--time-scale=0|--time-scale",
        "--stages=x|--stages",
        "--job-duration=-1s|--job-duration",
        "--no-such-option|--no-such-option"})
    void badSimulatorOptionExitsWithTwoAndOneLine(String option, String named) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Tier2Main.execute(new String[] {"--outputs=target/tier2-main-test", option},
                new PrintWriter(out, true), new PrintWriter(err, true));
        assertEquals(2, code, err.toString());
        String message = err.toString().strip();
        assertEquals(1, message.lines().count(), message);
        assertTrue(message.contains(named), message);
        assertEquals("", out.toString());
    }
}
