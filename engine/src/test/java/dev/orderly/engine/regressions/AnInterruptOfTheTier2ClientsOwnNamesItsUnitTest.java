package dev.orderly.engine.regressions;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orderly.api.JobKey;
import dev.orderly.api.Request;
import dev.orderly.api.RequestFailedException;
import dev.orderly.api.RequestListener;
import dev.orderly.api.RequestPlan;
import dev.orderly.api.RequestResult;
import dev.orderly.api.Tier2Client;
import dev.orderly.api.Tier2Exception;
import dev.orderly.engine.Background;
import dev.orderly.engine.Fixtures;
import dev.orderly.engine.InMemoryOutputStore;
import dev.orderly.engine.Orderly;
import dev.orderly.testing.Script;
import dev.orderly.testing.ScriptedTier2;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Found in review: the job side of {@code AClientInterruptedByItsOwnCodeNamesItsSegmentTest} and
 * {@code AnInterruptLeftByTheClientIsNamedTest}. A {@code Tier2Call} whose {@code await} throws an
 * {@code InterruptedException} of its own (what the testing kit's {@code Script.throwOnAwait(new
 * InterruptedException(..))} does), or a {@code Tier2Client} that follows the usual idiom for an interrupt of its own
 * timer (it sets its thread's interrupt again and throws a {@code Tier2Exception}), failed the request as
 * "request r failed: java.lang.InterruptedException", {@code key()} empty, naming no unit, although the caller of
 * {@code run} was never interrupted and nothing cancelled the request. {@code JobRunner} took every interrupt that was
 * not its handle's for the request's cancellation and let it out raw, and the scope reported it as the first failure.
 * It now fails naming the unit, the {@code InterruptedException} as the cause, as any other failure of a unit does.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class AnInterruptOfTheTier2ClientsOwnNamesItsUnitTest {

    @Test
    void aCallWhoseAwaitThrowsAnInterruptedExceptionOfItsOwnFailsTheRequestNamingTheUnit() {
        RequestPlan plan = new RequestPlan(0, 3, 1, 1);
        InMemoryOutputStore store = new InMemoryOutputStore();
        ScriptedTier2 tier2 = new ScriptedTier2(plan, store::write, job -> Script.succeed())
                .script(new JobKey(1, 0),
                        Script.throwOnAwait(new InterruptedException("the call's own wait was interrupted")));
        List<RequestFailedException> heard = new CopyOnWriteArrayList<>();

        Throwable t = new Background(Orderly.engine(Fixtures.fast()),
                Request.of(plan, tier2, store, (segment, output) -> { }).withId("r-11")
                        .withListener(failuresInto(heard))).failure(10);

        RequestFailedException e = assertInstanceOf(RequestFailedException.class, t);
        assertEquals(Optional.of(new JobKey(1, 0)), e.key(), e.getMessage());
        assertTrue(e.getMessage().startsWith("segment 1 stage 0 "), e.getMessage());
        assertTrue(e.getMessage().contains("interrupted"), e.getMessage());
        assertInstanceOf(InterruptedException.class, e.getCause());
        assertEquals(List.of(e), heard);
        assertEquals(0, tier2.openCalls());
    }

    @Test
    void anInterruptTheTier2ClientLeftSetFailsTheRequestNamingTheUnit() {
        RequestPlan plan = new RequestPlan(0, 3, 1, 1);
        InMemoryOutputStore store = new InMemoryOutputStore();
        ScriptedTier2 scripted = new ScriptedTier2(plan, store::write, job -> Script.succeed());
        // A client whose own connect timer interrupted it: it restores the interrupt, as the idiom goes, and says that
        // nothing ran. The job's next wait for its turn then meets the interrupt.
        Tier2Client tier2 = job -> {
            if (job.key().segment() == 1 && job.attempt() == 1) {
                Thread.currentThread().interrupt();
                throw Tier2Exception.unreachable("connect of " + job.key() + " cut short by the client's own timer");
            }
            return scripted.dial(job);
        };

        Throwable t = new Background(Orderly.engine(Fixtures.fast()),
                Request.of(plan, tier2, store, (segment, output) -> { }).withId("r-12")).failure(10);

        RequestFailedException e = assertInstanceOf(RequestFailedException.class, t);
        assertEquals(Optional.of(new JobKey(1, 0)), e.key(), e.getMessage());
        assertTrue(e.getMessage().startsWith("segment 1 stage 0 "), e.getMessage());
        assertTrue(e.getMessage().contains("interrupted"), e.getMessage());
        assertInstanceOf(InterruptedException.class, e.getCause());
        assertEquals(0, scripted.openCalls());
    }

    private static RequestListener failuresInto(List<RequestFailedException> heard) {
        return new RequestListener() {
            @Override
            public void onRequestFailed(RequestResult soFar, RequestFailedException failure) {
                heard.add(failure);
            }
        };
    }
}
