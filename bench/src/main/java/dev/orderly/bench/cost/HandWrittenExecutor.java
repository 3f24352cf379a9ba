package dev.orderly.bench.cost;

import dev.orderly.api.Job;
import dev.orderly.api.JobKey;
import dev.orderly.api.OutputStore;
import dev.orderly.api.RequestPlan;
import dev.orderly.api.SegmentConsumer;
import dev.orderly.api.Tier2Call;
import dev.orderly.api.Tier2Client;
import dev.orderly.api.Tier2Exception;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;

/**
 * The floor the engine is measured against: what a user would write by hand to run a request's jobs on virtual
 * threads and deliver the outputs in order, with none of the engine's rules (no launch queue, no window, no
 * look-ahead board, no cancellation of covered stages, no listener).
 *
 * <ul>
 *   <li>One virtual thread per segment from {@link Executors#newVirtualThreadPerTaskExecutor()}, at most {@code
 *       workers} alive ({@code Semaphore(workers)}, taken by the caller before it submits, given back by the task).
 *   <li>A ring of {@code 2 × workers} futures: before it submits segment {@code s} the caller delivers segment {@code
 *       s − 2 × workers} from that slot (waits for its future, reads the store, calls the client), so outputs reach
 *       the client in order, on the caller's thread, one at a time.
 *   <li>A segment's task runs its stages in turn, one dial each (a refused dial is dialled again at once). Stage
 *       {@code k + 1} of segment {@code s} needs stage {@code k} done for every segment before {@code s}: a chain of
 *       futures per stage, each segment completing its link once its own stage is done and its predecessor's link
 *       is complete.
 * </ul>
 *
 * A failed segment cancels the rest ({@code shutdownNow}) and is thrown from {@link #run}. Stateless; one call of
 * {@link #run} per request, on the caller's thread. Asked to, it records the engine's three per-job JFR events as the
 * engine does ({@link HandWrittenEvents}): the floor of what recording them costs.
 */
final class HandWrittenExecutor {

    private HandWrittenExecutor() {
    }

    /** Runs every segment of {@code plan} and hands each output to {@code client}, in order. */
    static void run(String requestId, RequestPlan plan, Tier2Client tier2, OutputStore outputs,
            SegmentConsumer client) throws Exception {
        run(requestId, plan, tier2, outputs, client, false);
    }

    /**
     * As {@link #run(String, RequestPlan, Tier2Client, OutputStore, SegmentConsumer)}; with {@code events}, each dial,
     * each admitted job's run and each delivery is a {@link HandWrittenEvents} event, made when its type is enabled.
     */
    static void run(String requestId, RequestPlan plan, Tier2Client tier2, OutputStore outputs,
            SegmentConsumer client, boolean events) throws Exception {
        int ring = 2 * plan.workers();
        Semaphore workers = new Semaphore(plan.workers());
        Future<?>[] futures = new Future<?>[ring];
        int links = plan.stages() - 1;
        // before[k]: stage k is done for every segment submitted so far.
        CompletableFuture<?>[] before = new CompletableFuture<?>[links];
        for (int k = 0; k < links; k++) {
            before[k] = CompletableFuture.completedFuture(null);
        }
        ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor();
        HandWrittenEvents.SegmentDelivered delivery = events ? HandWrittenEvents.deliveryBegun() : null;
        try {
            long start = plan.startSegment();
            for (long segment = start; segment < plan.endSegment(); segment++) {
                int slot = (int) ((segment - start) % ring);
                if (futures[slot] != null) {
                    deliver(segment - ring, futures[slot], outputs, client);
                    if (events) {
                        HandWrittenEvents.delivered(delivery, requestId, segment - ring);
                        delivery = HandWrittenEvents.deliveryBegun();
                    }
                }
                CompletableFuture<?>[] waitFor = before;
                CompletableFuture<?>[] mine = new CompletableFuture<?>[links];
                for (int k = 0; k < links; k++) {
                    mine[k] = new CompletableFuture<Void>();
                }
                before = mine;
                long s = segment;
                workers.acquire();
                futures[slot] = executor.submit(() -> {
                    try {
                        runSegment(requestId, s, plan.stages(), tier2, waitFor, mine, events);
                        return null;
                    } finally {
                        workers.release();
                    }
                });
            }
            for (long segment = Math.max(start, plan.endSegment() - ring); segment < plan.endSegment(); segment++) {
                deliver(segment, futures[(int) ((segment - start) % ring)], outputs, client);
                if (events) {
                    HandWrittenEvents.delivered(delivery, requestId, segment);
                    delivery = HandWrittenEvents.deliveryBegun();
                }
            }
        } catch (Exception | Error e) {
            executor.shutdownNow();
            throw e;
        } finally {
            executor.close();
        }
    }

    private static void runSegment(String requestId, long segment, int stages, Tier2Client tier2,
            CompletableFuture<?>[] waitFor, CompletableFuture<?>[] mine, boolean events) throws Exception {
        try {
            for (int stage = 0; stage < stages; stage++) {
                JobKey key = new JobKey(segment, stage);
                if (events) {
                    runJobRecorded(key, requestId, tier2);
                } else {
                    runJob(key, requestId, tier2);
                }
                if (stage < stages - 1) {
                    waitFor[stage].get();
                    mine[stage].complete(null);
                }
            }
        } catch (Exception | Error e) {
            for (CompletableFuture<?> link : mine) {
                link.completeExceptionally(e);
            }
            throw e;
        }
    }

    private static void runJob(JobKey key, String requestId, Tier2Client tier2) throws Exception {
        for (int attempt = 1; ; attempt++) {
            Tier2Call call;
            try {
                call = tier2.dial(new Job(requestId, key, attempt));
            } catch (Tier2Exception e) {
                if (e.neverRan()) {
                    continue;
                }
                throw e;
            }
            try (call) {
                call.await();
                return;
            }
        }
    }

    /** {@link #runJob} with a {@link HandWrittenEvents} event for each dial and for the admitted job's run. */
    private static void runJobRecorded(JobKey key, String requestId, Tier2Client tier2) throws Exception {
        for (int attempt = 1; ; attempt++) {
            HandWrittenEvents.Dial dial = HandWrittenEvents.dialBegun();
            Tier2Call call;
            try {
                call = tier2.dial(new Job(requestId, key, attempt));
            } catch (Tier2Exception e) {
                HandWrittenEvents.dialEnded(dial, requestId, key, attempt, outcome(e), String.valueOf(e.getMessage()));
                if (e.neverRan()) {
                    continue;
                }
                throw e;
            }
            HandWrittenEvents.dialEnded(dial, requestId, key, attempt, "admitted", "");
            HandWrittenEvents.JobRun run = HandWrittenEvents.runBegun();
            try (call) {
                call.await();
            } catch (Tier2Exception e) {
                HandWrittenEvents.runEnded(run, requestId, key, attempt, outcome(e), String.valueOf(e.getMessage()));
                throw e;
            }
            HandWrittenEvents.runEnded(run, requestId, key, attempt, "done", "");
            return;
        }
    }

    private static String outcome(Tier2Exception e) {
        return e.kind().name().toLowerCase(Locale.ROOT);
    }

    private static void deliver(long segment, Future<?> done, OutputStore outputs, SegmentConsumer client)
            throws Exception {
        try {
            done.get();
        } catch (ExecutionException e) {
            throw new IllegalStateException("segment " + segment + " failed", e.getCause());
        }
        byte[] output = outputs.read(segment)
                .orElseThrow(() -> new IllegalStateException("segment " + segment + " has no output"));
        client.accept(segment, output);
    }
}
