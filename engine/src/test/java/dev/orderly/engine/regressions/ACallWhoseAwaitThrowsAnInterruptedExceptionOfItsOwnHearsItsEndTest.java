package dev.orderly.engine.regressions;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import dev.orderly.api.EngineConfig;
import dev.orderly.api.Job;
import dev.orderly.api.JobKey;
import dev.orderly.api.Request;
import dev.orderly.api.RequestFailedException;
import dev.orderly.api.RequestPlan;
import dev.orderly.engine.Background;
import dev.orderly.engine.Fixtures;
import dev.orderly.engine.InMemoryOutputStore;
import dev.orderly.engine.JobEndLedger;
import dev.orderly.engine.Orderly;
import dev.orderly.testing.Script;
import dev.orderly.testing.ScriptedTier2;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Every admitted job hears its end, an interrupt included. A {@code Tier2Call} whose {@code await} throws an
 * {@code InterruptedException} of its own (nobody cancelled the job, withdrew it or stopped the request) fails the
 * request naming its unit ({@code AnInterruptOfTheTier2ClientsOwnNamesItsUnitTest}); its job, admitted, must still
 * hear its end, once, before the request's: else a listener counting running jobs leaks one. The engine's own stop
 * marks every job cancelled before it interrupts, so this is the one way an admitted job's wait is cut short by an
 * interrupt that is not its handle's.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class ACallWhoseAwaitThrowsAnInterruptedExceptionOfItsOwnHearsItsEndTest {

    private static final JobKey INTERRUPTED = new JobKey(1, 0);

    /** The ledger, and the units the listener heard abandoned, in order. */
    private static final class Ledger extends JobEndLedger {
        final List<JobKey> abandoned = new CopyOnWriteArrayList<>();
        final List<JobKey> admitted = new CopyOnWriteArrayList<>();

        @Override
        public void onAdmitted(Job job) {
            admitted.add(job.key());
            super.onAdmitted(job);
        }

        @Override
        public void onAbandoned(JobKey key) {
            abandoned.add(key);
            super.onAbandoned(key);
        }
    }

    @ParameterizedTest(name = "ordered={0}")
    @ValueSource(booleans = {true, false})
    void theJobWhoseAwaitWasInterruptedByTheCallItselfHearsItsEndOnce(boolean ordered) {
        EngineConfig config = ordered ? Fixtures.fast() : Fixtures.fastUnordered();
        RequestPlan plan = new RequestPlan(0, 3, 1, 1);
        InMemoryOutputStore store = new InMemoryOutputStore();
        ScriptedTier2 tier2 = new ScriptedTier2(plan, store::write, job -> Script.succeed())
                .script(INTERRUPTED, Script.throwOnAwait(new InterruptedException("the call's own wait was interrupted")));
        Ledger ledger = new Ledger();

        Throwable t = new Background(Orderly.engine(config),
                Request.of(plan, tier2, store, (segment, output) -> { }).withId("r-await-own")
                        .withListener(ledger)).failure(10);

        RequestFailedException e = assertInstanceOf(RequestFailedException.class, t);
        assertEquals(Optional.of(INTERRUPTED), e.key(), e.getMessage());
        assertEquals(1, ledger.admitted.stream().filter(INTERRUPTED::equals).count(), "admissions " + ledger.admitted);
        assertEquals(List.of(), ledger.violations());
        assertEquals(List.of(INTERRUPTED), ledger.abandoned, "the units heard abandoned");
        assertEquals(1, ledger.ends().size(), "request ends heard");
        assertEquals(0, tier2.openCalls());
    }
}
