package dev.orderly.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orderly.api.JobKey;
import dev.orderly.engine.LaunchBook.Entry;
import dev.orderly.engine.LaunchBook.Turn;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Checked: a job a freed slot hurried, then pushed out of the window by a lower segment, does not dial. */
class AHurriedJobPushedOutOfTheWindowSendsNothingTest {

    private final List<JobKey> woken = new ArrayList<>();
    private final long now = 1_000;

    @Test
    void theHurriedJobParksOutsideTheWindow() {
        LaunchBook book = new LaunchBook(2, e -> woken.add(e.key), null);
        JobKey failed = new JobKey(1, 0);
        JobKey refused = new JobKey(2, 0);
        book.requeue(failed, now + 500, false, now);
        book.requeue(refused, now + 100, true, now);
        for (JobKey k : List.of(failed, refused)) {
            Entry e = book.entry(k);
            book.waitFor(e);
            assertEquals(Turn.TIMED, book.turn(e, false, now));
        }
        assertTrue(book.slotFreed(now));
        assertEquals(List.of(refused), woken, "the refused job is hurried and woken");
        book.join(new JobKey(0, 0), now, now); // a late low segment pushes it out before its thread runs
        Entry e = book.entry(refused);
        book.awake(e);
        assertEquals(Turn.PARKED_OUTSIDE_THE_WINDOW, book.turn(e, true, now));
        assertFalse(book.isDialing(refused));
        assertTrue(book.invariantsHold(now));
    }
}
