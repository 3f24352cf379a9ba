package dev.orderly.engine.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** {@link Deadline}: none by default, a point on the nano clock otherwise, written the way people write it. */
class DeadlineTest {

    @ParameterizedTest
    @CsvSource({"PT30S, 30s", "PT0.3S, 300ms", "PT1M30S, 1m30s", "PT2H, 2h", "PT1.5S, 1s500ms",
            "PT0.000001S, PT0.000001S"})
    void aDeadlineIsWrittenTheWayPeopleWriteIt(String iso, String written) {
        assertEquals(written, Deadline.after(Duration.parse(iso)).toString());
    }

    @Test
    void noDeadlineNeverPasses() {
        Deadline none = Deadline.after(null);
        assertFalse(none.isSet());
        assertEquals(Long.MAX_VALUE, none.remainingNanos());
        assertEquals("none", none.toString());
        assertFalse(Deadline.after(Duration.ofDays(365L * 1_000)).isSet(), "beyond the nano clock is as good as none");
    }

    @Test
    void aSetDeadlineCountsDown() {
        Deadline hour = Deadline.after(Duration.ofHours(1));
        assertTrue(hour.isSet());
        long remaining = hour.remainingNanos();
        assertTrue(remaining > 0 && remaining <= Duration.ofHours(1).toNanos(), Long.toString(remaining));
    }
}
