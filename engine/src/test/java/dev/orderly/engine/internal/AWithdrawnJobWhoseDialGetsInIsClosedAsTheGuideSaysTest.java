package dev.orderly.engine.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orderly.api.EngineConfig;
import dev.orderly.api.Job;
import dev.orderly.api.JobKey;
import dev.orderly.api.RequestListener;
import dev.orderly.api.Tier2Call;
import dev.orderly.api.Tier2Client;
import dev.orderly.engine.LaunchQueue;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Found in review (a doc defect): docs/guide/engine-rules.md said a job asked to give its worker up to the client's
 * re-run while it dials does so as the dial ends "if it does not get in or gets in and fails", and
 * {@code RunningJobs.withdraw} that a job that "just got in ... keeps its worker". The engine does otherwise, on
 * purpose ({@code JobHandle.dialing}: the re-run comes first): a dial that gets in after its job was withdrawn has its
 * call closed at once, never awaited, and the job gives its worker up (the listener hears {@code onAdmitted}, then
 * {@code onAbandoned}). The guide now says so.
 */
@Timeout(value = 20, unit = TimeUnit.SECONDS)
class AWithdrawnJobWhoseDialGetsInIsClosedAsTheGuideSaysTest {

    private static final JobKey UNIT = new JobKey(3, 0);
    private static final Path GUIDE = Path.of("..").toAbsolutePath().normalize().resolve("docs/guide/engine-rules.md");

    @Test
    void aDialThatGetsInAfterItsJobWasWithdrawnIsClosedAndTheGuideSaysSo() throws Exception {
        EngineConfig config = EngineConfig.builder().refusedDelay(Duration.ofMillis(2)).build();
        RunningJobs running = new RunningJobs(16, 4);
        AtomicInteger awaits = new AtomicInteger();
        AtomicInteger closes = new AtomicInteger();
        Tier2Client tier2 = job -> {
            // The client's re-run asks for this job's worker while its dial is in flight; then the dial gets in.
            assertTrue(running.withdraw(UNIT), "the dialing job could not be withdrawn");
            return new Tier2Call() {
                @Override
                public void await() {
                    awaits.incrementAndGet();
                }

                @Override
                public void close() {
                    closes.incrementAndGet();
                }
            };
        };
        List<String> heard = new CopyOnWriteArrayList<>();
        RequestListener listener = new RequestListener() {
            @Override
            public void onAdmitted(Job job) {
                heard.add("admitted");
            }

            @Override
            public void onAbandoned(JobKey key) {
                heard.add("abandoned");
            }

            @Override
            public void onJobDone(Job job) {
                heard.add("done");
            }
        };
        JobRunner runner = new JobRunner("r", 0, tier2, new LaunchQueue(10, config), config, new RequestCounters(),
                listener, key -> true, new StallWatch("r", Duration.ofSeconds(30)), () -> 3);
        JobHandle handle = running.start(UNIT);
        JobRunner.Outcome outcome;
        try {
            outcome = runner.run(UNIT, new UnitCounts.Tally(UnitCounts.NONE), handle);
        } finally {
            running.end(handle);
        }
        assertFalse(Thread.interrupted(), "the job left an interrupt on its thread");

        assertEquals(JobRunner.Outcome.WITHDRAWN, outcome);
        assertEquals(0, awaits.get(), "the admitted call was awaited");
        assertEquals(1, closes.get(), "the admitted call was not closed once");
        assertEquals(List.of("admitted", "abandoned"), heard);

        String guide = Files.readString(GUIDE);
        String rerun = guide.substring(guide.indexOf("## The re-run of the segment you wait for comes first"),
                guide.indexOf("## Resume asks, then reads once")).replaceAll("\\s+", " ");
        assertFalse(rerun.contains("if it does not get in or gets in and fails"),
                "the guide still says a withdrawn job's dial that gets in keeps its worker");
        assertTrue(rerun.contains("its call is closed at once"),
                "the guide does not say that a withdrawn job's dial that gets in has its call closed: " + rerun);
    }
}
