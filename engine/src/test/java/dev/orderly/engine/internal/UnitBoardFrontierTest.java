package dev.orderly.engine.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orderly.api.JobKey;
import dev.orderly.api.RequestPlan;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The dependency frontier, step by step: {@code (s, k)} may run as soon as, and not before, stage {@code k - 1} is
 * done for every segment below {@code s}. Each case is a short, exact sequence of launches and completions where a
 * frontier moved too little (work held back) or too far (a unit launched before what it loads) shows in the next
 * unit the board picks.
 */
@Timeout(value = 10, unit = TimeUnit.SECONDS)
class UnitBoardFrontierTest {

    /** 10 segments of 2 stages. */
    private static final RequestPlan PLAN = new RequestPlan(0, 10, 2, 2);

    private static JobKey launch(UnitBoard board) {
        JobKey key = board.next();
        board.scheduled(key);
        return key;
    }

    @Test
    void aLowerStageDoneByItsOwnJobLetsTheNextSegmentsHigherStageRun() {
        UnitBoard board = new UnitBoard(PLAN, 4);
        assertEquals(new JobKey(0, 1), launch(board));
        assertEquals(new JobKey(1, 0), launch(board), "(1, 1) waits for segment 0's stage 0");
        board.done(new JobKey(0, 1), new UnitCounts(1, 0, 0));
        board.done(new JobKey(1, 0), new UnitCounts(1, 0, 0));
        assertEquals(new JobKey(1, 1), launch(board));

        assertEquals(new JobKey(2, 1), board.next(),
                "stage 0 is done in segments 0 and 1 (the second by its own job), so (2, 1) may run");
    }

    @Test
    void aFullyDoneWindowDoesNotVouchForTheSegmentPastIt() {
        UnitBoard board = new UnitBoard(PLAN, 3);
        for (long segment = 0; segment < 3; segment++) {
            JobKey key = launch(board);
            assertEquals(new JobKey(segment, 1), key);
            board.done(key, new UnitCounts(1, 0, 0));
        }
        assertNull(board.next(), "the look-ahead [0, 3) is done");

        board.delivered();
        assertEquals(new JobKey(3, 1), launch(board), "segment 3 entered the look-ahead");
        board.delivered();

        assertEquals(new JobKey(4, 0), board.next(), "(4, 1) must wait for segment 3's stage 0, still running");
    }

    @Test
    void aUnitOutsideTheLookaheadIsRefusedLoudly() {
        UnitBoard board = new UnitBoard(PLAN, 3);
        IllegalArgumentException past = assertThrows(IllegalArgumentException.class,
                () -> board.scheduled(new JobKey(3, 0)));
        assertEquals("segment 3 is outside the window [0, 3)", past.getMessage());

        JobKey first = launch(board);
        board.done(first, new UnitCounts(1, 0, 0));
        board.delivered();
        IllegalArgumentException below = assertThrows(IllegalArgumentException.class,
                () -> board.scheduled(new JobKey(0, 0)));
        assertTrue(below.getMessage().contains("outside the window [1, 4)"), below.getMessage());
    }

    @Test
    void theStageAwaitedIsTheHighestInFlightElseTheLast() {
        UnitBoard board = new UnitBoard(PLAN, 4);
        assertEquals(1, board.stageAwaited(0), "nothing launched: the last stage, the one segment 0's launch runs");
        assertEquals(new JobKey(0, 1), launch(board));
        assertEquals(new JobKey(1, 0), launch(board));
        assertEquals(1, board.stageAwaited(0), "stage 1 in flight; stage 0 never runs, it is covered");
        assertEquals(0, board.stageAwaited(1), "only stage 0 of segment 1 in flight");

        board.done(new JobKey(1, 0), new UnitCounts(1, 0, 0));
        assertEquals(1, board.stageAwaited(1), "segment 1 now waits for its stage 1, not launched yet");
        board.done(new JobKey(0, 1), new UnitCounts(1, 0, 0));
        assertEquals(2, board.stageAwaited(0), "every stage of segment 0 is done: the stage count");
    }

    @Test
    void withResumeNoSegmentPastTheWindowIsLookedUpEvenWhenItIsNextInLine() {
        UnitBoard board = new UnitBoard(PLAN, 2, true, null); // a window of 2 segments
        board.checked(0, false);
        board.checked(1, false);
        assertEquals(-1, board.segmentToCheck());

        IllegalStateException early = assertThrows(IllegalStateException.class, () -> board.checked(2, false));
        assertEquals("segment 2 checked out of turn; next to check is -1", early.getMessage());
    }
}
