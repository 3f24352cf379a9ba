package dev.orderly.grpc;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orderly.api.Job;
import dev.orderly.api.JobKey;
import dev.orderly.api.Tier2Call;
import dev.orderly.api.Tier2Exception;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * What the docs of {@code Tier2Server.Builder.maxCallsPerConnection} (its javadoc and transport.md) say of a dial
 * whose stream waits in the client's HTTP/2 layer behind the cap: a client with {@code admissionWait} gives every
 * dial its wait on top of {@code admissionTimeout}, and can not tell a stream held back by the cap from a dial waiting
 * in a room, so such a dial is UNREACHABLE only after {@code admissionWait + admissionTimeout}. (The docs said
 * "past admissionTimeout".)
 */
@Timeout(60)
class ADialPastTheCallCapWaitsItsAdmissionWaitTooTest {

    @Test
    void aStreamHeldBackByTheCapIsGivenTheAdmissionWaitOnTopOfTheAdmissionTimeout() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        JobWorker held = (job, work) -> release.await();
        // one slot, a room, and a cap of 2 calls a connection: the holder and one waiter fill the connection
        try (Tier2Server s = Tier2Server.builder().maxConcurrentJobs(1).waitingRoom(4, Duration.ofSeconds(30))
                .maxCallsPerConnection(2).worker(held).drainGrace(Duration.ZERO).build().start();
             GrpcTier2Client c = GrpcTier2Client.builder().addresses(List.of("127.0.0.1:" + s.port()))
                     .healthChecking(false).admissionWait(Duration.ofSeconds(4))
                     .admissionTimeout(Duration.ofMillis(200)).build()) {
            try {
                Tier2Call holder = c.dial(new Job("h", new JobKey(0, 0), 1));
                AtomicReference<Object> waiter = dial(c, new Job("a", new JobKey(1, 0), 1));
                await().atMost(10, SECONDS).until(() -> s.callsWaiting() == 1);
                long t0 = System.nanoTime();
                AtomicReference<Object> pastTheCap = dial(c, new Job("b", new JobKey(2, 0), 1));
                // well past admissionTimeout (200 ms), well within admissionWait (4 s): still waiting
                await().pollDelay(Duration.ofSeconds(1)).atMost(5, SECONDS).until(() -> true);
                assertNull(pastTheCap.get(), "answered within its admissionWait");
                assertEquals(1, s.callsWaiting(), "the stream past the cap reached the tier2");
                await().atMost(20, SECONDS).until(() -> pastTheCap.get() != null);
                long waited = System.nanoTime() - t0;
                Tier2Exception e = (Tier2Exception) pastTheCap.get();
                assertEquals(Tier2Exception.Kind.UNREACHABLE, e.kind(), e.getMessage());
                assertTrue(waited >= Duration.ofSeconds(4).toNanos(), "gave up after " + waited + " ns");
                assertTrue(e.getMessage().contains("admissionWait 4000 ms + admissionTimeout 200 ms"),
                        e.getMessage());
                // the waiter's own wait ended as the tier2 refuses: nothing ran
                await().atMost(10, SECONDS).until(() -> waiter.get() != null);
                assertEquals(Tier2Exception.Kind.REFUSED, ((Tier2Exception) waiter.get()).kind());
                holder.close();
            } finally {
                release.countDown();
            }
        }

    }

    private static AtomicReference<Object> dial(GrpcTier2Client c, Job job) {
        AtomicReference<Object> result = new AtomicReference<>();
        Thread.ofVirtual().start(() -> {
            try {
                result.set(c.dial(job));
            } catch (Exception e) {
                result.set(e);
            }
        });
        return result;
    }
}
