package dev.orderly.bench.cost;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orderly.api.JobKey;
import dev.orderly.api.RequestPlan;
import dev.orderly.api.Tier2Call;
import dev.orderly.api.Tier2Client;
import dev.orderly.api.Tier2Exception;
import dev.orderly.bench.scale.CheckingConsumer;
import dev.orderly.engine.InMemoryOutputStore;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.stream.LongStream;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The baseline does the job it is timed for: every segment delivered once, in order, with its own output; no more
 * than {@code workers} segments at once; stage k+1 of a segment dialled only after stage k of every segment before
 * it is done; a refused dial dialled again. A floor that skipped any of it would flatter nobody but itself.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class HandWrittenExecutorTest {

    @Test
    void deliversEverySegmentInOrderWithItsOwnOutputThroughRefusals() throws Exception {
        RequestPlan plan = new RequestPlan(5, 2_005, 1, 8);
        InMemoryOutputStore outputs = new InMemoryOutputStore();
        InstantTier2 tier2 = new InstantTier2(plan.lastStage(), outputs, 0.5);
        CheckingConsumer client = new CheckingConsumer(plan.startSegment(), outputs);

        HandWrittenExecutor.run("t", plan, tier2, outputs, client);

        assertEquals(plan.segmentCount(), client.delivered());
        assertEquals(0, outputs.size(), "every output read and deleted");
        assertTrue(tier2.dials() > plan.segmentCount(), "refused dials were dialled again: " + tier2.dials());
    }

    @Test
    void aStageDialsOnlyOnceThePreviousStageOfEveryEarlierSegmentIsDoneAndNoMoreThanWorkersRunAtOnce()
            throws Exception {
        int workers = 6;
        RequestPlan plan = new RequestPlan(0, 3_000, 3, workers);
        InMemoryOutputStore outputs = new InMemoryOutputStore();
        InstantTier2 instant = new InstantTier2(plan.lastStage(), outputs, 0);
        // doneThrough[k]: how many segments from 0 on have stage k done, with no gap; every dial is checked against it.
        AtomicLongArray doneThrough = new AtomicLongArray(plan.stages());
        ConcurrentHashMap<JobKey, Boolean> done = new ConcurrentHashMap<>();
        List<String> broken = new CopyOnWriteArrayList<>();
        AtomicInteger running = new AtomicInteger();
        AtomicInteger mostAtOnce = new AtomicInteger();
        Tier2Client checking = job -> {
            JobKey key = job.key();
            if (key.stage() == 0) {
                mostAtOnce.accumulateAndGet(running.incrementAndGet(), Math::max);
            }
            if (key.stage() > 0 && doneThrough.get(key.stage() - 1) < key.segment()) {
                broken.add(key + " dialled before stage " + (key.stage() - 1) + " of every earlier segment was done");
            }
            Tier2Call call = instant.dial(job);
            return () -> {
                call.await();
                done.put(key, true);
                advance(doneThrough, key.stage(), done);
                if (key.stage() == plan.lastStage()) {
                    running.decrementAndGet();
                }
            };
        };

        HandWrittenExecutor.run("t", plan, checking, outputs, new CheckingConsumer(0, outputs));

        assertEquals(List.of(), broken);
        assertTrue(mostAtOnce.get() <= workers, "at most " + workers + " segments at once, saw " + mostAtOnce.get());
    }

    @Test
    void aFailedSegmentFailsTheRunInsteadOfHanging() {
        RequestPlan plan = new RequestPlan(0, 500, 2, 4);
        InMemoryOutputStore outputs = new InMemoryOutputStore();
        Tier2Client failing = job -> {
            if (job.key().segment() == 100 && job.key().stage() == 0) {
                throw Tier2Exception.fatal("segment 100 breaks", null);
            }
            return new InstantTier2(plan.lastStage(), outputs, 0).dial(job);
        };

        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> HandWrittenExecutor.run("t", plan, failing, outputs, new CheckingConsumer(0, outputs)));
        assertTrue(e.getMessage().contains("segment 100"), e.getMessage());
    }

    @Test
    void withEventsItRecordsADialPerDialARunPerJobAndADeliveryPerSegmentInOrder(@TempDir Path dir) throws Exception {
        RequestPlan plan = new RequestPlan(10, 410, 2, 5);
        InMemoryOutputStore outputs = new InMemoryOutputStore();
        InstantTier2 tier2 = new InstantTier2(plan.lastStage(), outputs, 0.3);
        CheckingConsumer client = new CheckingConsumer(plan.startSegment(), outputs);
        Path file = dir.resolve("events.jfr");

        try (Recording recording = new Recording()) {
            for (String event : HandWrittenEvents.NAMES) {
                recording.enable(event).withoutThreshold();
            }
            recording.start();
            HandWrittenExecutor.run("t", plan, tier2, outputs, client, true);
            recording.stop();
            recording.dump(file);
        }

        List<RecordedEvent> events = RecordingFile.readAllEvents(file);
        List<RecordedEvent> dials = ofType(events, "dev.orderly.bench.Dial");
        List<RecordedEvent> runs = ofType(events, "dev.orderly.bench.JobRun");
        List<Long> delivered = ofType(events, "dev.orderly.bench.SegmentDelivered").stream()
                .sorted(Comparator.comparing(RecordedEvent::getEndTime)).map(e -> e.getLong("segment")).toList();
        long jobs = plan.segmentCount() * plan.stages();
        assertEquals(tier2.dials(), dials.size(), "one Dial per dial");
        assertEquals(jobs, dials.stream().filter(e -> e.getString("outcome").equals("admitted")).count());
        assertEquals(tier2.dials() - jobs,
                dials.stream().filter(e -> e.getString("outcome").equals("refused")).count(), "the rest refused");
        assertEquals(jobs, runs.size(), "one JobRun per job");
        assertTrue(runs.stream().allMatch(e -> e.getString("outcome").equals("done") && e.getString("requestId")
                .equals("t")), "every run done, of request t");
        assertEquals(LongStream.range(plan.startSegment(), plan.endSegment()).boxed().toList(), delivered,
                "one SegmentDelivered per segment, in order");
    }

    @Test
    void withEventsButNoRecordingItRunsAsWithout() throws Exception {
        RequestPlan plan = new RequestPlan(0, 300, 2, 4);
        InMemoryOutputStore outputs = new InMemoryOutputStore();
        CheckingConsumer client = new CheckingConsumer(plan.startSegment(), outputs);

        HandWrittenExecutor.run("t", plan, new InstantTier2(plan.lastStage(), outputs, 0.5), outputs, client, true);

        assertEquals(plan.segmentCount(), client.delivered());
        assertEquals(0, outputs.size(), "every output read and deleted");
    }

    private static List<RecordedEvent> ofType(List<RecordedEvent> events, String type) {
        return events.stream().filter(e -> e.getEventType().getName().equals(type)).toList();
    }

    /** Moves stage {@code stage}'s count of done segments past every segment done without a gap. */
    private static void advance(AtomicLongArray doneThrough, int stage, ConcurrentHashMap<JobKey, Boolean> done) {
        // Each job records itself, then moves the count on as far as it goes: the last of a run of jobs to record
        // itself sees them all.
        while (true) {
            long through = doneThrough.get(stage);
            if (!done.containsKey(new JobKey(through, stage))) {
                return;
            }
            doneThrough.compareAndSet(stage, through, through + 1);
        }
    }
}
