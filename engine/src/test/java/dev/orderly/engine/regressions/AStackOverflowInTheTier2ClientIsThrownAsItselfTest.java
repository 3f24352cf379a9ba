package dev.orderly.engine.regressions;

import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.orderly.api.JobKey;
import dev.orderly.api.Request;
import dev.orderly.api.RequestPlan;
import dev.orderly.api.Tier2Client;
import dev.orderly.engine.Fixtures;
import dev.orderly.engine.InMemoryOutputStore;
import dev.orderly.engine.Orderly;
import dev.orderly.engine.RecordingClient;
import dev.orderly.testing.Script;
import dev.orderly.testing.ScriptedTier2;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The embedding guide's table of failures gave {@code StackOverflowError} in the tier2 client as its example of "a job
 * throws an Error", answered by a {@code RequestFailedException} "segment S stage K failed with <error> on attempt N,
 * giving up". A {@code StackOverflowError} is a {@code VirtualMachineError}: {@code run} throws it as itself, as the
 * engine rules say. This pins the behaviour the guide now describes.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class AStackOverflowInTheTier2ClientIsThrownAsItselfTest {

    @Test
    void runThrowsTheStackOverflowErrorItself() {
        RequestPlan plan = new RequestPlan(0, 3, 1, 2);
        InMemoryOutputStore store = new InMemoryOutputStore();
        ScriptedTier2 fleet = new ScriptedTier2(plan, store::write, job -> Script.succeed());
        StackOverflowError overflow = new StackOverflowError("deep");
        Tier2Client tier2 = job -> {
            if (job.key().equals(new JobKey(1, 0))) {
                throw overflow;
            }
            return fleet.dial(job);
        };

        StackOverflowError thrown = assertThrows(StackOverflowError.class, () -> Orderly.engine(Fixtures.fast())
                .run(Request.of(plan, tier2, store, new RecordingClient())));

        assertSame(overflow, thrown);
    }
}
