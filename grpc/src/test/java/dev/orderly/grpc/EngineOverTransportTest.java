package dev.orderly.grpc;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orderly.api.EngineConfig;
import dev.orderly.api.Engine;
import dev.orderly.api.JobKey;
import dev.orderly.api.Request;
import dev.orderly.api.RequestFailedException;
import dev.orderly.api.RequestPlan;
import dev.orderly.api.RequestResult;
import dev.orderly.api.Tier2Exception;
import dev.orderly.engine.Orderly;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The engine's guarantees, run the same way over an in-memory tier2 and over gRPC: segments arrive in order and once,
 * retried failures are counted exactly, a unit gives up after exactly its limit, a fatal error stops at once, and a
 * cancelled request leaves no call open on the tier2.
 */
@Timeout(60)
class EngineOverTransportTest {

    private static final int STAGES = 2;
    private static final Engine ENGINE = Orderly.engine(EngineConfig.builder()
            .refusedDelay(Duration.ofMillis(1)).failureDelay(Duration.ofMillis(1)).build());

    private static RequestResult run(Transport t, long segments, int workers) throws Exception {
        AtomicLong expected = new AtomicLong();
        RequestResult result = ENGINE.run(Request.of(new RequestPlan(0, segments, STAGES, workers), t.client(),
                t.outputs, (segment, output) -> {
                    assertEquals(expected.getAndIncrement(), segment, "out of order");
                    assertArrayEquals(Transport.output(segment), output);
                }));
        assertEquals(segments, expected.get());
        return result;
    }

    @ParameterizedTest
    @EnumSource(Transport.Kind.class)
    void segmentsArriveInOrderOnceEach(Transport.Kind kind) throws Exception {
        try (Transport t = Transport.open(kind, 3, STAGES,
                (job, work) -> Thread.sleep(ThreadLocalRandom.current().nextInt(3)))) {
            RequestResult result = run(t, 40, 6);
            assertEquals(40, result.segmentsDelivered());
            assertEquals(0, result.failures());
            assertTrue(result.refusals() > 0, "6 workers on 3 slots never met a refusal");
        }
    }

    @ParameterizedTest
    @EnumSource(Transport.Kind.class)
    void eachRetryableFailureIsRetriedAndCountedOnce(Transport.Kind kind) throws Exception {
        AtomicReference<Transport> self = new AtomicReference<>();
        try (Transport t = Transport.open(kind, 4, STAGES, (job, work) -> {
            if (job.key().stage() == 1 && job.key().segment() % 5 == 0 && self.get().admissionsOf(job.key()) == 1) {
                throw Tier2Exception.retryable("first run of " + job.key() + " fails", null);
            }
        })) {
            self.set(t);
            RequestResult result = run(t, 40, 4);
            assertEquals(8, result.failures());
            assertEquals(2, t.admissionsOf(new JobKey(0, 1)));
        }
    }

    @ParameterizedTest
    @EnumSource(Transport.Kind.class)
    void unitGivesUpAfterExactlyMaxFailures(Transport.Kind kind) throws Exception {
        JobKey doomed = new JobKey(3, 1);
        try (Transport t = Transport.open(kind, 4, STAGES, (job, work) -> {
            if (job.key().equals(doomed)) {
                throw Tier2Exception.retryable("always fails", null);
            }
        })) {
            RequestFailedException e = assertThrows(RequestFailedException.class, () -> run(t, 10, 4));
            assertEquals(doomed, e.key().orElseThrow());
            assertEquals(EngineConfig.defaults().maxFailures(), t.admissionsOf(doomed));
            await().atMost(5, SECONDS).until(() -> t.openCalls() == 0);
        }
    }

    @ParameterizedTest
    @EnumSource(Transport.Kind.class)
    void unitGivesUpAfterExactlyMaxExecutionTimeouts(Transport.Kind kind) throws Exception {
        JobKey slow = new JobKey(2, 1);
        try (Transport t = Transport.open(kind, 4, STAGES, (job, work) -> {
            if (job.key().equals(slow)) {
                throw Tier2Exception.executionTimeout("ran past its deadline");
            }
        })) {
            RequestFailedException e = assertThrows(RequestFailedException.class, () -> run(t, 10, 4));
            assertEquals(slow, e.key().orElseThrow());
            assertEquals(EngineConfig.defaults().maxExecutionTimeouts(), t.admissionsOf(slow));
        }
    }

    @ParameterizedTest
    @EnumSource(Transport.Kind.class)
    void fatalErrorFailsTheRequestWithoutARetry(Transport.Kind kind) throws Exception {
        JobKey bad = new JobKey(4, 1);
        try (Transport t = Transport.open(kind, 4, STAGES, (job, work) -> {
            if (job.key().equals(bad)) {
                throw Tier2Exception.fatal("bad module", null);
            }
        })) {
            RequestFailedException e = assertThrows(RequestFailedException.class, () -> run(t, 10, 4));
            assertEquals(bad, e.key().orElseThrow());
            assertEquals(1, t.admissionsOf(bad));
        }
    }

    @ParameterizedTest
    @EnumSource(Transport.Kind.class)
    void cancelledRequestLeavesNoCallOpen(Transport.Kind kind) throws Exception {
        CountDownLatch hanging = new CountDownLatch(3);
        try (Transport t = Transport.open(kind, 3, STAGES, (job, work) -> {
            hanging.countDown();
            new CountDownLatch(1).await(); // runs until cancelled
        })) {
            AtomicReference<Throwable> ended = new AtomicReference<>();
            Thread caller = Thread.ofVirtual().start(() -> {
                try {
                    run(t, 20, 6);
                } catch (Throwable e) {
                    ended.set(e);
                }
            });
            assertTrue(hanging.await(10, SECONDS), "the jobs never started");
            caller.interrupt();
            caller.join(Duration.ofSeconds(10));
            assertTrue(ended.get() instanceof InterruptedException, String.valueOf(ended.get()));
            await().atMost(5, SECONDS).until(() -> t.openCalls() == 0);
        }
    }
}
