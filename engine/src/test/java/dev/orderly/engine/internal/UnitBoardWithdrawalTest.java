package dev.orderly.engine.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orderly.api.JobKey;
import dev.orderly.api.RequestPlan;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A job that gave its worker up to the client's re-run ({@link UnitBoard#withdrawn}) leaves its unit PENDING: the
 * board hands it out again, in launch order, and nothing else changes.
 */
@Timeout(value = 10, unit = TimeUnit.SECONDS)
class UnitBoardWithdrawalTest {

    private static JobKey launch(UnitBoard board) {
        JobKey key = board.next();
        board.scheduled(key);
        return key;
    }

    @Test
    void aWithdrawnUnitIsHandedOutAgainInLaunchOrder() {
        UnitBoard board = new UnitBoard(new RequestPlan(0, 4, 1, 3), 6);
        assertEquals(new JobKey(0, 0), launch(board));
        assertEquals(new JobKey(1, 0), launch(board));
        assertEquals(new JobKey(2, 0), launch(board));
        assertEquals(new JobKey(3, 0), launch(board));
        assertNull(board.next());

        board.withdrawn(new JobKey(3, 0));

        assertTrue(board.windowInvariantsHold(), board.toString());
        assertEquals(new JobKey(3, 0), board.next());
    }

    @Test
    void theClientsReRunComesBeforeAWithdrawnHigherUnit() {
        UnitBoard board = new UnitBoard(new RequestPlan(0, 4, 1, 3), 6);
        for (int i = 0; i < 4; i++) {
            launch(board);
        }
        board.done(new JobKey(0, 0), UnitCounts.NONE);
        board.rerun();
        board.withdrawn(new JobKey(3, 0));

        assertTrue(board.windowInvariantsHold(), board.toString());
        assertEquals(new JobKey(0, 0), launch(board), "the re-run of the client's segment first");
        assertEquals(new JobKey(3, 0), launch(board));
    }

    @Test
    void aWithdrawnHigherStageLeavesTheStageUnderItToTheRelaunch() {
        RequestPlan plan = new RequestPlan(0, 4, 2, 4);
        UnitBoard board = new UnitBoard(plan, 8);
        assertEquals(new JobKey(0, 1), launch(board));
        assertEquals(new JobKey(1, 0), launch(board));
        board.done(new JobKey(0, 1), UnitCounts.NONE);
        assertEquals(new JobKey(1, 1), launch(board));

        board.withdrawn(new JobKey(1, 1));

        assertTrue(board.windowInvariantsHold(), board.toString());
        assertEquals(new JobKey(1, 1), board.next(), "handed out again; (1, 0) still has its own job");
    }

    @Test
    void aWithdrawnUnitThatIsNoLongerNeededStaysOut() {
        RequestPlan plan = new RequestPlan(0, 4, 2, 4);
        UnitBoard board = new UnitBoard(plan, 8);
        launch(board); // (0, 1)
        JobKey lower = launch(board); // (1, 0)
        board.done(new JobKey(0, 1), UnitCounts.NONE);
        JobKey higher = launch(board); // (1, 1)
        board.done(higher, UnitCounts.NONE);

        board.withdrawn(lower);

        assertTrue(board.windowInvariantsHold(), board.toString());
        assertEquals(new JobKey(2, 1), board.next(), "(1, 0) is covered by (1, 1): not handed out again");
    }

    @Test
    void aWithdrawalFromJustPastTheWindowLeavesTheWindowAlone() {
        // A look-ahead of 4: segment 4 is the first past the window, and shares its slot in the ring with segment 0.
        UnitBoard board = new UnitBoard(new RequestPlan(0, 10, 1, 3), 4);
        assertEquals(new JobKey(0, 0), launch(board));

        board.withdrawn(new JobKey(4, 0));

        assertTrue(board.windowInvariantsHold(), board.toString());
        assertEquals(new JobKey(1, 0), board.next(), "segment 0's job still runs: " + board);
    }
}
