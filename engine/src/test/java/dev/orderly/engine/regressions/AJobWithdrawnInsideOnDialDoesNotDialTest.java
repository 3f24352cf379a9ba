package dev.orderly.engine.regressions;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orderly.api.Job;
import dev.orderly.api.OutputStore;
import dev.orderly.api.Request;
import dev.orderly.api.RequestListener;
import dev.orderly.api.RequestPlan;
import dev.orderly.api.RequestResult;
import dev.orderly.api.Tier2Call;
import dev.orderly.api.Tier2Client;
import dev.orderly.engine.Background;
import dev.orderly.engine.Fixtures;
import dev.orderly.engine.InMemoryOutputStore;
import dev.orderly.engine.Orderly;
import dev.orderly.engine.RecordingClient;
import dev.orderly.engine.testlog.LogCapture;
import dev.orderly.testing.ScriptedTier2;
import java.io.InterruptedIOException;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The re-run of the client's segment, with every worker taken, has the highest job that is not on a tier2 give its
 * worker up "before its next dial". A job withdrawn while it was inside {@code RequestListener.onDial} (the engine
 * marks it dialing before it calls the listener) still dialed once the listener returned: a dial made after the job
 * had given its worker up, an admission thrown away, and the client's re-run kept waiting for that dial.
 *
 * <p>Plan 0..3, one stage, 2 workers. Segment 0's first job writes no output; segment 1 is held on its tier2; segment
 * 2's {@code onDial} returns only once the walker has withdrawn it for segment 0's re-run. Segment 2 must then not
 * dial before the re-run of segment 0 has.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class AJobWithdrawnInsideOnDialDoesNotDialTest {

    @Test
    void aJobWithdrawnWhileTheListenerHearsItsDialDoesNotDial() throws Throwable {
        RequestPlan plan = new RequestPlan(0, 3, 1, 2);
        InMemoryOutputStore written = new InMemoryOutputStore();
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch segment1In = new CountDownLatch(1);
        CountDownLatch segment2InOnDial = new CountDownLatch(1);
        List<String> dials = new CopyOnWriteArrayList<>();
        Tier2Client tier2 = job -> {
            dials.add(job.key().segment() + "/" + job.attempt());
            return new Tier2Call() {
                @Override
                public void await() throws InterruptedException {
                    long segment = job.key().segment();
                    if (segment == 0 && job.attempt() == 1) {
                        return; // succeeds, writes no output: the walker re-runs segment 0
                    }
                    if (segment == 1) {
                        segment1In.countDown();
                        release.await();
                    }
                    written.write(segment, ScriptedTier2.outputOf(segment));
                }
            };
        };
        OutputStore store = new OutputStore() {
            private boolean first = true;

            @Override
            public Optional<byte[]> read(long segment) throws InterruptedIOException {
                if (segment == 0 && first) {
                    first = false;
                    try {
                        assertTrue(segment1In.await(10, TimeUnit.SECONDS), "segment 1 never got in");
                        assertTrue(segment2InOnDial.await(10, TimeUnit.SECONDS), "segment 2 never dialed");
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        throw new InterruptedIOException();
                    }
                }
                return written.read(segment);
            }
        };
        RequestListener slowOnDial = new RequestListener() {
            @Override
            public void onDial(Job job) {
                if (job.key().segment() == 2 && segment2InOnDial.getCount() > 0) {
                    segment2InOnDial.countDown();
                    // A slow listener: it returns after the walker has asked segment 2's job for its worker.
                    await().atMost(Duration.ofSeconds(10)).until(() -> LogCapture.snapshot().stream()
                            .anyMatch(e -> e.message().contains("segment 2 stage 0 gives its worker up")));
                }
            }
        };
        RecordingClient client = new RecordingClient();
        LogCapture.start();
        Background run = new Background(Orderly.engine(Fixtures.fast()),
                Request.of(plan, tier2, store, client).withListener(slowOnDial));
        try {
            await().atMost(Duration.ofSeconds(10)).until(() -> client.segments().equals(List.of(0L)));
        } finally {
            release.countDown();
            LogCapture.stop();
        }
        RequestResult result = run.get(10);
        assertEquals(Fixtures.range(0, 3), client.segments());
        int rerun = dials.indexOf("0/2");
        int firstOfSegment2 = List.copyOf(dials).stream().filter(d -> d.startsWith("2/")).findFirst()
                .map(dials::indexOf).orElseThrow();
        assertTrue(rerun >= 0 && rerun < firstOfSegment2,
                "segment 2 dialed after it had given its worker up to segment 0's re-run: dials " + dials);
        assertEquals(1, result.reruns());
    }
}
