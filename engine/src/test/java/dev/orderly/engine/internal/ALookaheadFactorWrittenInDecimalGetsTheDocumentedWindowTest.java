package dev.orderly.engine.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.orderly.api.JobKey;
import dev.orderly.api.RequestPlan;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Regression: the look-ahead is documented as {@code ceil(lookaheadFactor * workers)}, but the engine computed it in
 * binary floating point, so a factor written in decimal that has no exact binary value came out one segment too
 * long whenever the product rounds up past a whole number: {@code lookaheadFactor} 1.1 with 100 workers gave a
 * look-ahead of 111 segments, not 110 (1.1 * 100 is 110.00000000000001 in a double); 0.14 with 50 workers gave 8,
 * not 7, so a request scheduled a segment at {@code reading + 7}, past the documented bound.
 */
@Timeout(value = 20, unit = TimeUnit.SECONDS)
class ALookaheadFactorWrittenInDecimalGetsTheDocumentedWindowTest {

    @Test
    void theLookaheadIsTheCeilingOfTheDecimalProduct() {
        assertEquals(110, Scheduler.lookahead(1.1, 100));
        assertEquals(220, Scheduler.lookahead(2.2, 100));
        assertEquals(7, Scheduler.lookahead(0.14, 50));
        // Products that are whole or not whole as before keep their ceiling.
        assertEquals(200, Scheduler.lookahead(2.0, 100));
        assertEquals(2, Scheduler.lookahead(2.0, 1));
        assertEquals(5, Scheduler.lookahead(1.5, 3));
    }

    @Test
    void aLongLookaheadIsTheCeilingOfTheDecimalProductToo() {
        // 1.1 * 100,000 is 110000.00000000001 in a double: a rounding error of 1.5e-11, larger relative to one segment
        // than in a short look-ahead, and still not a segment more.
        assertEquals(110_000, Scheduler.lookahead(1.1, 100_000));
        assertEquals(220_000, Scheduler.lookahead(2.2, 100_000));
        assertEquals(14_000, Scheduler.lookahead(0.14, 100_000));
    }

    @Test
    void aDecimalProductJustPastAWholeNumberGetsTheNextSegment() {
        // 1.0000000001 is past 1 in decimal too: its ceiling is 2, however close the product lies to a whole number.
        assertEquals(2, Scheduler.lookahead(1.0000000001, 1));
        assertEquals(11, Scheduler.lookahead(1.00000000001, 10));
    }

    @Test
    void noUnitAtOrPastReadingPlusTheLookaheadIsHandedOut() throws InterruptedException {
        // 50 workers, factor 0.14: a look-ahead of ceil(7.0) = 7 segments, fewer than the workers, so the window binds.
        RequestPlan plan = new RequestPlan(0, 100, 1, 50);
        Scheduler scheduler = new Scheduler(plan, Scheduler.lookahead(0.14, plan.workers()));
        JobKey[] keys = new JobKey[64];
        UnitCounts[] priors = new UnitCounts[64];
        int handedOut = scheduler.awaitNextJobs(keys, priors);
        long highest = -1;
        for (int i = 0; i < handedOut; i++) {
            highest = Math.max(highest, keys[i].segment());
        }
        assertEquals(7, handedOut, "units handed out with the client on segment 0");
        assertEquals(6, highest, "the highest segment scheduled with the client on segment 0");
    }

    @Test
    void theBoundIsCheckedOnTheDecimalProduct() {
        // 0.5 * 2,097,152 is exactly 2^20: allowed; one worker more is over.
        assertEquals(1 << 20, Scheduler.lookahead(0.5, 1 << 21));
        assertThrows(IllegalArgumentException.class, () -> Scheduler.lookahead(0.5, (1 << 21) + 2));
    }
}
