package dev.orderly.engine;

import static dev.orderly.engine.Fixtures.range;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orderly.api.Job;
import dev.orderly.api.JobKey;
import dev.orderly.api.Request;
import dev.orderly.api.RequestListener;
import dev.orderly.api.RequestPlan;
import dev.orderly.api.RequestResult;
import dev.orderly.api.Tier2Exception;
import dev.orderly.testing.Script;
import dev.orderly.testing.ScriptedTier2;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.slf4j.MDC;

/**
 * Listener events match the result's figures; a listener that throws never breaks a request. Listener events of a
 * job run on the job's thread with the job's MDC; the MDC is checked only where the SLF4J binding keeps one (the
 * slf4j-simple binding used by these tests has none and returns null for every key).
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class ListenerTest {

    private static final RequestPlan PLAN = new RequestPlan(0, 30, 2, 4);

    /** Refused on the first dial, a retryable failure on the second, then OK; one missing output. */
    private static Script bumpy(Job job) {
        if (job.key().equals(new JobKey(7, 1)) && job.attempt() == 3) {
            return Script.loseOutput();
        }
        return switch (job.attempt()) {
            case 1 -> Script.refuse(1);
            case 2 -> Script.throwOnAwait(Tier2Exception.retryable("stream reset", null));
            default -> Script.succeed();
        };
    }

    private static final class Counting extends JobEndLedger {
        final AtomicInteger queued = new AtomicInteger();
        final AtomicInteger dials = new AtomicInteger();
        final AtomicInteger refused = new AtomicInteger();
        final AtomicInteger admitted = new AtomicInteger();
        final AtomicInteger failed = new AtomicInteger();
        final AtomicInteger jobsDone = new AtomicInteger();
        final List<JobKey> reruns = new CopyOnWriteArrayList<>();
        final List<Long> delivered = new CopyOnWriteArrayList<>();
        final List<String> mdcMismatches = new CopyOnWriteArrayList<>();

        @Override
        public void onQueued(JobKey key) {
            queued.incrementAndGet();
        }

        @Override
        public void onDial(Job job) {
            dials.incrementAndGet();
            String seen = MDC.get("request") + "/" + MDC.get("segment") + "/" + MDC.get("stage");
            String expected = job.requestId() + "/" + job.key().segment() + "/" + job.key().stage();
            if (!seen.equals(expected)) {
                mdcMismatches.add(seen + " instead of " + expected);
            }
        }

        @Override
        public void onRefused(Job job, Tier2Exception cause) {
            super.onRefused(job, cause);
            refused.incrementAndGet();
        }

        @Override
        public void onAdmitted(Job job) {
            super.onAdmitted(job);
            admitted.incrementAndGet();
        }

        @Override
        public void onFailed(Job job, Tier2Exception cause) {
            super.onFailed(job, cause);
            failed.incrementAndGet();
        }

        @Override
        public void onJobDone(Job job) {
            super.onJobDone(job);
            jobsDone.incrementAndGet();
        }

        @Override
        public void onRerun(JobKey key) {
            reruns.add(key);
        }

        @Override
        public void onSegmentDelivered(long segment) {
            delivered.add(segment);
        }
    }

    @ParameterizedTest(name = "ordered={0}")
    @ValueSource(booleans = {true, false})
    void eventsAddUpToTheResultAndJobEventsCarryTheMdc(boolean ordered) throws Exception {
        InMemoryOutputStore store = new InMemoryOutputStore();
        ScriptedTier2 tier2 = new ScriptedTier2(PLAN, store::write, ListenerTest::bumpy);
        Counting events = new Counting();

        RequestResult result = Orderly.engine(ordered ? Fixtures.fast() : Fixtures.fastUnordered())
                .run(Request.of(PLAN, tier2, store, new RecordingClient()).withId("req-7").withListener(events));

        assertEquals(result.dials(), events.dials.get());
        assertEquals(result.refusals(), events.refused.get());
        assertEquals(result.admissions(), events.admitted.get());
        assertEquals(result.failures(), events.failed.get());
        // An admitted job ends done, failed, or abandoned because a higher stage covered its unit first; each
        // admission hears exactly one of those. A covered job whose call the engine closed just after the tier2
        // finished it is abandoned too (the tier2 counted it as succeeded, not cancelled), so done is at most the
        // admissions that neither failed nor were cancelled, and never more than the calls that succeeded.
        assertEquals(List.of(), events.violations());
        assertTrue(events.jobsDone.get() <= result.admissions() - result.failures() - tier2.cancelledCalls(),
                events.jobsDone + " done of " + result.admissions() + " admitted");
        assertTrue(events.jobsDone.get() <= tier2.succeededCalls());
        assertEquals(List.of(new JobKey(7, 1)), events.reruns);
        assertEquals(range(0, 30), events.delivered);
        assertEquals(List.of(), events.mdcMismatches);
        assertTrue(tier2.log().dials().stream().allMatch(j -> j.requestId().equals("req-7")));
        if (ordered) {
            assertTrue(events.queued.get() > 0, "refused jobs join the launch queue");
        } else {
            assertEquals(0, events.queued.get(), "the unordered baseline has no queue");
        }
    }

    @Test
    void aListenerThatThrowsFromEveryEventNeverBreaksTheRequest() throws Exception {
        InMemoryOutputStore store = new InMemoryOutputStore();
        ScriptedTier2 tier2 = new ScriptedTier2(PLAN, store::write, ListenerTest::bumpy);
        AtomicInteger calls = new AtomicInteger();
        RequestListener hostile = new RequestListener() {
            private void boom() {
                calls.incrementAndGet();
                throw new IllegalStateException("listener bug");
            }

            @Override
            public void onQueued(JobKey key) {
                boom();
            }

            @Override
            public void onDial(Job job) {
                boom();
            }

            @Override
            public void onRefused(Job job, Tier2Exception cause) {
                boom();
            }

            @Override
            public void onAdmitted(Job job) {
                boom();
            }

            @Override
            public void onFailed(Job job, Tier2Exception cause) {
                boom();
            }

            @Override
            public void onJobDone(Job job) {
                boom();
            }

            @Override
            public void onRerun(JobKey key) {
                boom();
            }

            @Override
            public void onSegmentDelivered(long segment) {
                boom();
            }
        };
        RecordingClient client = new RecordingClient();

        RequestResult result = Orderly.engine(Fixtures.fast())
                .run(Request.of(PLAN, tier2, store, client).withListener(hostile));

        assertEquals(range(0, 30), client.segments());
        assertEquals(30, result.segmentsDelivered());
        assertTrue(calls.get() > result.dials(), "the listener was called " + calls + " times");
        assertEquals(0, tier2.openCalls());
    }
}
