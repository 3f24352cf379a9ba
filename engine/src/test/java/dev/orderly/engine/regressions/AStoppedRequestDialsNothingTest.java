package dev.orderly.engine.regressions;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orderly.api.EngineConfig;
import dev.orderly.api.Job;
import dev.orderly.api.JobKey;
import dev.orderly.api.Request;
import dev.orderly.api.RequestFailedException;
import dev.orderly.api.RequestPlan;
import dev.orderly.api.Tier2Call;
import dev.orderly.api.Tier2Client;
import dev.orderly.api.Tier2Exception;
import dev.orderly.engine.Background;
import dev.orderly.engine.Fixtures;
import dev.orderly.engine.InMemoryOutputStore;
import dev.orderly.engine.Orderly;
import dev.orderly.engine.RecordingClient;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Issue 19, defect 3: a stopped request kept dialing when its client answered the interrupt with a
 * {@code Tier2Exception} and did not re-assert the flag: the job redialed every {@code refusedDelay}, and {@code run}
 * returned only if the fleet admitted it — never, on a full fleet. The request's state stops every dial.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class AStoppedRequestDialsNothingTest {

    private static EngineConfig config(boolean ordered) {
        return ordered ? Fixtures.fast() : Fixtures.fastUnordered();
    }

    /**
     * A client on a full fleet that bends the interrupt rule: a dial of a unit {@code blocks} says yes to waits until
     * the thread is interrupted and then throws {@code unreachable("call cancelled")}, its interrupt flag cleared;
     * every other dial is refused at once. A dial that {@code fails} says yes to throws a fatal error.
     */
    private static final class BendingClient implements Tier2Client {
        final List<Job> dials = new CopyOnWriteArrayList<>();
        final AtomicInteger blocked = new AtomicInteger();
        private final Predicate<Job> blocks;
        private final Predicate<Job> fails;
        private final CountDownLatch never = new CountDownLatch(1);

        BendingClient(Predicate<Job> blocks, Predicate<Job> fails) {
            this.blocks = blocks;
            this.fails = fails;
        }

        @Override
        public Tier2Call dial(Job job) throws Tier2Exception {
            dials.add(job);
            if (fails.test(job)) {
                throw Tier2Exception.fatal("module panicked", null);
            }
            if (blocks.test(job)) {
                blocked.incrementAndGet();
                try {
                    never.await();
                } catch (InterruptedException e) {
                    // the bend: the interrupt is answered with an exception, and the flag stays cleared
                    throw Tier2Exception.unreachable("call cancelled");
                } finally {
                    blocked.decrementAndGet();
                }
            }
            throw Tier2Exception.refused("at capacity");
        }

        long dialsOf(JobKey key) {
            return dials.stream().filter(j -> j.key().equals(key)).count();
        }
    }

    @ParameterizedTest(name = "ordered={0}")
    @ValueSource(booleans = {true, false})
    void anInterruptedCallerStopsAJobWhoseClientSwallowsTheInterrupt(boolean ordered) throws Throwable {
        RequestPlan plan = new RequestPlan(0, 1, 1, 1);
        BendingClient client = new BendingClient(job -> job.attempt() == 1, job -> false);
        InMemoryOutputStore store = new InMemoryOutputStore();
        Background run = new Background(Orderly.engine(config(ordered)),
                Request.of(plan, client, store, new RecordingClient()));
        await().atMost(Duration.ofSeconds(10)).until(() -> client.blocked.get() == 1);

        run.interrupt();

        assertInstanceOf(InterruptedException.class, run.failure(10));
        assertEquals(1, client.dials.size(), "dials after the caller was interrupted: " + client.dials);
    }

    @ParameterizedTest(name = "ordered={0}")
    @ValueSource(booleans = {true, false})
    void aFailedRequestStopsAJobWhoseClientSwallowsTheInterrupt(boolean ordered) throws Throwable {
        RequestPlan plan = new RequestPlan(0, 2, 1, 2);
        JobKey bending = new JobKey(1, 0);
        CountDownLatch bendingBlocks = new CountDownLatch(1);
        BendingClient client = new BendingClient(job -> {
            if (job.key().equals(bending) && job.attempt() == 1) {
                bendingBlocks.countDown();
                return true;
            }
            return false;
        }, job -> {
            if (!job.key().equals(bending)) {
                try {
                    // segment 0 fails the request only once segment 1 blocks in its dial
                    assertTrue(bendingBlocks.await(10, TimeUnit.SECONDS));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                return true;
            }
            return false;
        });
        InMemoryOutputStore store = new InMemoryOutputStore();
        Background run = new Background(Orderly.engine(config(ordered)),
                Request.of(plan, client, store, new RecordingClient()));

        RequestFailedException e = assertInstanceOf(RequestFailedException.class, run.failure(10));

        assertEquals(new JobKey(0, 0), e.key().orElseThrow(), e.getMessage());
        assertEquals(1, client.dialsOf(bending), "dials of " + bending + " after the request failed: " + client.dials);
    }

    @ParameterizedTest(name = "ordered={0}")
    @ValueSource(booleans = {true, false})
    void aPassedDeadlineStopsAJobWhoseClientSwallowsTheInterrupt(boolean ordered) throws Throwable {
        RequestPlan plan = new RequestPlan(0, 1, 1, 1);
        BendingClient client = new BendingClient(job -> job.attempt() == 1, job -> false);
        InMemoryOutputStore store = new InMemoryOutputStore();
        Background run = new Background(Orderly.engine(config(ordered)),
                Request.of(plan, client, store, new RecordingClient()).withDeadline(Duration.ofMillis(200)));

        RequestFailedException e = assertInstanceOf(RequestFailedException.class, run.failure(10));

        assertTrue(e.getMessage().contains("passed its deadline"), e.getMessage());
        assertEquals(1, client.dials.size(), "dials after the deadline passed: " + client.dials);
    }

    /**
     * The leftover of the same defect: a job running on a tier2 when another job fails the request, whose call answers
     * the interrupt with a retryable error (the flag cleared), dialed once more after its failure delay.
     */
    @ParameterizedTest(name = "ordered={0}")
    @ValueSource(booleans = {true, false})
    void aRunningJobDoesNotRedialAfterAnotherFailedTheRequest(boolean ordered) throws Throwable {
        RequestPlan plan = new RequestPlan(0, 2, 1, 2);
        JobKey running = new JobKey(1, 0);
        CountDownLatch runningAwaits = new CountDownLatch(1);
        CountDownLatch never = new CountDownLatch(1);
        List<Job> dials = new CopyOnWriteArrayList<>();
        Tier2Client client = job -> {
            dials.add(job);
            if (!job.key().equals(running)) {
                assertTrue(runningAwaits.await(10, TimeUnit.SECONDS), "segment 1 never ran");
                throw Tier2Exception.fatal("module panicked", null);
            }
            if (job.attempt() > 1) {
                throw Tier2Exception.refused("at capacity");
            }
            return () -> {
                runningAwaits.countDown();
                try {
                    never.await();
                } catch (InterruptedException e) {
                    // the bend: the interrupt is answered with a retryable error, and the flag stays cleared
                    throw Tier2Exception.retryable("stream reset", e);
                }
            };
        };
        InMemoryOutputStore store = new InMemoryOutputStore();
        Background run = new Background(Orderly.engine(config(ordered)),
                Request.of(plan, client, store, new RecordingClient()));

        RequestFailedException e = assertInstanceOf(RequestFailedException.class, run.failure(10));

        assertEquals(new JobKey(0, 0), e.key().orElseThrow(), e.getMessage());
        assertEquals(1, dials.stream().filter(j -> j.key().equals(running)).count(), "dials: " + dials);
    }
}
