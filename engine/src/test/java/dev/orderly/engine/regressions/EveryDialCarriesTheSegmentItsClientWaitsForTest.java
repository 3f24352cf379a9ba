package dev.orderly.engine.regressions;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orderly.api.Job;
import dev.orderly.api.Request;
import dev.orderly.api.RequestPlan;
import dev.orderly.api.RequestResult;
import dev.orderly.engine.Fixtures;
import dev.orderly.engine.InMemoryOutputStore;
import dev.orderly.engine.Orderly;
import dev.orderly.engine.RecordingClient;
import dev.orderly.testing.Script;
import dev.orderly.testing.ScriptedTier2;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Every dial carries the segment the request's client waits for ({@link Job#readingSegment()}), so a tier2 with a
 * waiting room can rank the job by how soon it is needed. Segments 1 to 3 dial while segment 0's job is held on its
 * dial, so the client can not have read anything yet: they carry reading segment 0, ranks 1 to 3.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class EveryDialCarriesTheSegmentItsClientWaitsForTest {

    private static final RequestPlan PLAN = new RequestPlan(0, 8, 1, 4);

    @Test
    void dialsAheadOfTheClientCarryItsSegmentAndNoDialIsRankedBelowZero() throws Exception {
        CountDownLatch othersDialed = new CountDownLatch(3);
        InMemoryOutputStore store = new InMemoryOutputStore();
        ScriptedTier2 tier2 = new ScriptedTier2(PLAN, store::write, job -> {
            if (job.key().segment() == 0) {
                assertTrue(othersDialed.await(10, TimeUnit.SECONDS), "segments 1 to 3 dial while 0 is held");
            } else if (job.key().segment() <= 3) {
                othersDialed.countDown();
            }
            return Script.succeed();
        });
        // Unordered: no launch window, so the four workers' jobs dial at once.
        RequestResult result = Orderly.engine(Fixtures.fastUnordered())
                .run(Request.of(PLAN, tier2, store, new RecordingClient()));

        assertEquals(8, result.segmentsDelivered());
        for (Job job : tier2.log().dials()) {
            long segment = job.key().segment();
            if (segment >= 1 && segment <= 3) {
                assertEquals(0, job.readingSegment(), "the client still waits for segment 0 when " + job + " dials");
                assertEquals(segment, job.rank());
            }
            assertTrue(job.readingSegment() <= segment, job + " is ranked below zero");
        }
    }
}
