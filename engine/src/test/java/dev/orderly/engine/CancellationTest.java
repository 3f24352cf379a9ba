package dev.orderly.engine;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orderly.api.EngineConfig;
import dev.orderly.api.Job;
import dev.orderly.api.JobKey;
import dev.orderly.api.Request;
import dev.orderly.api.RequestFailedException;
import dev.orderly.api.RequestListener;
import dev.orderly.api.RequestPlan;
import dev.orderly.api.Tier2Exception;
import dev.orderly.testing.Script;
import dev.orderly.testing.ScriptedTier2;
import java.io.IOException;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Cancellation: a fatal failure, a client failure or an interrupt of the caller ends every
 * thread of the request, wherever it waits, and closes every call, before {@code run} returns. The delays here are a
 * minute long, so a request that ends within the test's few seconds was cut short, not waited out.
 *
 * <p>Equivalent mutant, not tested: the output walker going on to the next segment when the scheduler answers
 * STOPPED, instead of returning. The scheduler is stopped only once the request has failed or been cancelled; the
 * walker's next call, {@code awaitOutput} for a segment that was never delivered, then throws at once (only the
 * client's segment may be asked for), and a failure after the cancellation is its echo, which neither scope reports.
 * Nothing reaches the client or the caller either way.
 */
@Timeout(value = 20, unit = TimeUnit.SECONDS)
class CancellationTest {

    private static final RequestPlan PLAN = new RequestPlan(0, 30, 1, 6);

    private static EngineConfig longDelays(boolean ordered) {
        return EngineConfig.builder()
                .refusedDelay(Duration.ofMinutes(1))
                .failureDelay(Duration.ofMinutes(1))
                .ordered(ordered)
                .build();
    }

    /**
     * Segments 0 and 1 block in {@code await}, 2 blocks in {@code dial}, 3 is refused (and waits out the refused delay,
     * in the queue or on its own), 4 failed (and waits out the failure delay), the rest succeed.
     */
    private static Script stuckEverywhere(Job job) {
        return switch ((int) job.key().segment()) {
            case 0, 1 -> Script.block();
            case 2 -> Script.blockDial();
            case 3 -> Script.refuse(1);
            case 4 -> Script.throwOnAwait(Tier2Exception.retryable("stream reset", null));
            default -> Script.succeed();
        };
    }

    /** Counts refusals and failures, to know when the jobs are waiting out their delays. */
    private static final class Waits implements RequestListener {
        final AtomicInteger refused = new AtomicInteger();
        final AtomicInteger failed = new AtomicInteger();

        @Override
        public void onRefused(Job job, Tier2Exception cause) {
            refused.incrementAndGet();
        }

        @Override
        public void onFailed(Job job, Tier2Exception cause) {
            failed.incrementAndGet();
        }
    }

    @ParameterizedTest(name = "ordered={0}")
    @ValueSource(booleans = {true, false})
    void interruptingTheCallerEndsEveryThreadAndClosesEveryCall(boolean ordered) {
        InMemoryOutputStore store = new InMemoryOutputStore();
        ScriptedTier2 tier2 = new ScriptedTier2(PLAN, store::write, CancellationTest::stuckEverywhere);
        ThreadCensus census = new ThreadCensus();
        Waits waits = new Waits();
        Background run = new Background(census.engine(longDelays(ordered)),
                Request.of(PLAN, tier2, store, new RecordingClient()).withListener(waits));

        // At least one refusal: in ordered mode each job that ends lets segment 3 redial (and be refused) at once.
        await().atMost(Duration.ofSeconds(10)).until(() -> tier2.blocked() == 3 && waits.refused.get() >= 1
                && waits.failed.get() == 1);
        run.interrupt();

        assertInstanceOf(InterruptedException.class, run.failure(10));
        assertEquals(0, census.alive(), "request threads alive after run ended");
        assertTrue(census.created() >= 7, "threads created: " + census.created());
        assertTrue(census.allVirtual());
        assertEquals(0, tier2.blocked());
        assertEquals(0, tier2.openCalls());
        assertEquals(0, tier2.doubleCloses());
    }

    @ParameterizedTest(name = "ordered={0}")
    @ValueSource(booleans = {true, false})
    void aFatalErrorEndsEveryOtherJobFast(boolean ordered) {
        JobKey fatal = new JobKey(5, 0);
        CountDownLatch othersBusy = new CountDownLatch(5);
        InMemoryOutputStore store = new InMemoryOutputStore();
        ScriptedTier2 tier2 = new ScriptedTier2(PLAN, store::write, job -> {
            if (job.key().equals(fatal)) {
                othersBusy.await();
                return Script.throwOnDial(Tier2Exception.fatal("module panicked", null));
            }
            othersBusy.countDown();
            return job.key().segment() % 2 == 0 ? Script.block() : Script.blockDial();
        });
        ThreadCensus census = new ThreadCensus();
        Background run = new Background(census.engine(longDelays(ordered)),
                Request.of(PLAN, tier2, store, new RecordingClient()));

        RequestFailedException failure = assertInstanceOf(RequestFailedException.class, run.failure(10));

        assertEquals(Optional.of(fatal), failure.key());
        assertEquals("segment 5 stage 0 failed fatally on attempt 1, giving up: module panicked", failure.getMessage());
        assertEquals(0, census.alive(), "request threads alive after run ended");
        assertEquals(0, tier2.blocked());
        assertEquals(0, tier2.openCalls());
    }

    @ParameterizedTest(name = "ordered={0}")
    @ValueSource(booleans = {true, false})
    void aClientExceptionFailsTheRequestWithItsCause(boolean ordered) {
        IOException diskFull = new IOException("disk full");
        InMemoryOutputStore store = new InMemoryOutputStore();
        ScriptedTier2 tier2 = new ScriptedTier2(PLAN, store::write,
                job -> job.key().segment() < 5 ? Script.succeed() : Script.block());
        ThreadCensus census = new ThreadCensus();
        RecordingClient recorder = new RecordingClient();
        Background run = new Background(census.engine(longDelays(ordered)),
                Request.of(PLAN, tier2, store, (segment, output) -> {
                    if (segment == 4) {
                        throw diskFull;
                    }
                    recorder.accept(segment, output);
                }));

        RequestFailedException failure = assertInstanceOf(RequestFailedException.class, run.failure(10));

        assertSame(diskFull, failure.getCause());
        assertTrue(failure.getMessage().contains("segment 4"), failure.getMessage());
        assertEquals(Fixtures.range(0, 4), recorder.segments());
        assertEquals(0, census.alive(), "request threads alive after run ended");
        assertEquals(0, tier2.openCalls());
    }

    @ParameterizedTest(name = "ordered={0}")
    @ValueSource(booleans = {true, false})
    void aJobFailureInterruptsAClientThatBlocks(boolean ordered) {
        CountDownLatch clientHeld = new CountDownLatch(1);
        CountDownLatch never = new CountDownLatch(1);
        InMemoryOutputStore store = new InMemoryOutputStore();
        ScriptedTier2 tier2 = new ScriptedTier2(PLAN, store::write, job -> {
            if (job.key().segment() == 3) {
                clientHeld.await();
                return Script.throwOnAwait(Tier2Exception.fatal("bad block", null));
            }
            return Script.succeed();
        });
        ThreadCensus census = new ThreadCensus();
        Background run = new Background(census.engine(longDelays(ordered)),
                Request.of(PLAN, tier2, store, (segment, output) -> {
                    clientHeld.countDown();
                    never.await();
                }));

        RequestFailedException failure = assertInstanceOf(RequestFailedException.class, run.failure(10));

        assertEquals(Optional.of(new JobKey(3, 0)), failure.key());
        assertEquals(0, census.alive(), "request threads alive after run ended");
        assertEquals(0, tier2.openCalls());
    }
}
