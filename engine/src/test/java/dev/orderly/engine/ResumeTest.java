package dev.orderly.engine;

import static dev.orderly.engine.Fixtures.range;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orderly.api.Job;
import dev.orderly.api.Request;
import dev.orderly.api.RequestFailedException;
import dev.orderly.api.RequestPlan;
import dev.orderly.api.RequestResult;
import dev.orderly.api.SegmentConsumer;
import dev.orderly.api.Tier2Call;
import dev.orderly.api.Tier2Client;
import dev.orderly.testing.ScriptedTier2;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code Request.withResume}: a request killed at a random point and started again from where its partial result
 * says it stopped runs only the segments whose output is not in the {@link FileOutputStore}; across the two runs the
 * client sees every segment exactly once, in order.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ResumeTest {

    private static final long END = 60;

    /** A fleet that admits every job at once; a last-stage job writes its segment's output to the file store. */
    private static final class FileTier2 implements Tier2Client {
        final FileOutputStore store;
        final List<Job> dials = new CopyOnWriteArrayList<>();

        FileTier2(FileOutputStore store) {
            this.store = store;
        }

        @Override
        public Tier2Call dial(Job job) {
            dials.add(job);
            return () -> {
                if (job.key().stage() == 1) {
                    try {
                        store.write(job.key().segment(), ScriptedTier2.outputOf(job.key().segment()));
                    } catch (java.io.IOException e) {
                        throw new java.io.UncheckedIOException(e);
                    }
                }
            };
        }

        Set<Long> dialedSegments() {
            TreeSet<Long> segments = new TreeSet<>();
            dials.forEach(j -> segments.add(j.key().segment()));
            return segments;
        }
    }

    /** What the user sees: the segments handed to the client, checked against their expected output. */
    private static final class UserOutput implements SegmentConsumer {
        final List<Long> segments = new CopyOnWriteArrayList<>();
        final List<Long> wrong = new CopyOnWriteArrayList<>();
        final long killAt;
        final FileOutputStore store;
        final AtomicReference<Thread> caller = new AtomicReference<>();

        UserOutput(long killAt, FileOutputStore store) {
            this.killAt = killAt;
            this.store = store;
        }

        /**
         * At {@code killAt}: waits until the next few segments' outputs are in the store (work done ahead of the
         * client, as the look-ahead allows), then kills the request and blocks until the kill reaches this thread,
         * so segment {@code killAt} is never acknowledged (its accept does not return).
         */
        @Override
        public void accept(long segment, byte[] output) throws InterruptedException {
            if (segment == killAt) {
                long ahead = Math.min(END, segment + 4);
                org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(10)).until(() -> {
                    for (long s = segment + 1; s < ahead; s++) {
                        if (!Files.exists(store.pathOf(s))) {
                            return false;
                        }
                    }
                    return true;
                });
                caller.get().interrupt();
                new java.util.concurrent.CountDownLatch(1).await();
            }
            if (!Arrays.equals(output, ScriptedTier2.outputOf(segment))) {
                wrong.add(segment);
            }
            segments.add(segment);
        }
    }

    /** Runs {@code request} on a thread of its own whose handle the client can interrupt; returns what run did. */
    private static Object runKillable(Request request, UserOutput client) throws Exception {
        CompletableFuture<Object> outcome = new CompletableFuture<>();
        Thread thread = Thread.ofVirtual().unstarted(() -> {
            try {
                outcome.complete(Orderly.engine(Fixtures.fast()).run(request));
            } catch (Throwable t) {
                outcome.complete(t);
            }
        });
        client.caller.set(thread);
        thread.start();
        return outcome.get(30, TimeUnit.SECONDS);
    }

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3, 4, 5, 6})
    void aRequestKilledAtARandomPointAndResumedRunsOnlyWhatIsMissing(long seed, @TempDir Path dir) throws Exception {
        FileOutputStore store = new FileOutputStore(dir);
        long killAt = new SplittableRandom(seed).nextLong(0, END - 1);

        // First run: killed (interrupted) by the client right after it received segment killAt.
        FileTier2 first = new FileTier2(store);
        UserOutput firstOutput = new UserOutput(killAt, store);
        Object firstOutcome = runKillable(Request.of(new RequestPlan(0, END, 2, 4), first, store, firstOutput)
                .withResume(true), firstOutput);
        InterruptedException killed = assertInstanceOf(InterruptedException.class, firstOutcome);
        long delivered = RequestFailedException.partialResultOf(killed).orElseThrow().segmentsDelivered();
        assertEquals(range(0, delivered), firstOutput.segments, "what the user saw of the first run");
        assertEquals(killAt, delivered, "the client was killed inside segment killAt");
        Set<Long> storedBefore = new TreeSet<>();
        for (long s = delivered; s < END; s++) {
            if (Files.exists(store.pathOf(s))) {
                storedBefore.add(s);
            }
        }

        assertTrue(storedBefore.size() >= Math.min(3, END - delivered), "stored ahead: " + storedBefore);

        // Second run: from the first segment not delivered, resuming from the store.
        FileTier2 second = new FileTier2(store);
        UserOutput secondOutput = new UserOutput(-1, store);
        Object secondOutcome = runKillable(Request.of(new RequestPlan(delivered, END, 2, 4), second, store,
                secondOutput).withResume(true), secondOutput);
        RequestResult result = assertInstanceOf(RequestResult.class, secondOutcome);

        List<Long> seen = new ArrayList<>(firstOutput.segments);
        seen.addAll(secondOutput.segments);
        assertEquals(range(0, END), seen, "every segment exactly once, in order, across the two runs");
        assertEquals(List.of(), firstOutput.wrong);
        assertEquals(List.of(), secondOutput.wrong);
        assertEquals(END - delivered, result.segmentsDelivered());
        Set<Long> rerun = new TreeSet<>(second.dialedSegments());
        rerun.retainAll(storedBefore);
        assertEquals(Set.of(), rerun, "segments served from the store were run again");
        for (long s = delivered; s < END; s++) {
            assertEquals(!storedBefore.contains(s), second.dialedSegments().contains(s), "segment " + s);
        }
    }

    @Test
    void aResumedRequestWithEverythingStoredDialsNothing(@TempDir Path dir) throws Exception {
        FileOutputStore store = new FileOutputStore(dir);
        for (long s = 0; s < END; s++) {
            store.write(s, ScriptedTier2.outputOf(s));
        }
        FileTier2 tier2 = new FileTier2(store);
        UserOutput output = new UserOutput(-1, store);

        RequestResult result = Orderly.engine(Fixtures.fast())
                .run(Request.of(new RequestPlan(0, END, 3, 4), tier2, store, output).withResume(true));

        assertEquals(END, result.segmentsDelivered());
        assertEquals(range(0, END), output.segments);
        assertEquals(List.of(), tier2.dials);
    }

    @Test
    void withoutResumeStoredSegmentsRunAgain(@TempDir Path dir) throws Exception {
        FileOutputStore store = new FileOutputStore(dir);
        store.write(3, ScriptedTier2.outputOf(3));
        FileTier2 tier2 = new FileTier2(store);
        UserOutput output = new UserOutput(-1, store);

        Orderly.engine(Fixtures.fast()).run(Request.of(new RequestPlan(0, 10, 2, 4), tier2, store, output));

        assertEquals(range(0, 10), output.segments);
        assertTrue(tier2.dialedSegments().contains(3L));
    }
}
