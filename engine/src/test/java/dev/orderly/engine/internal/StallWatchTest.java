package dev.orderly.engine.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import dev.orderly.api.Tier2Exception;
import dev.orderly.engine.testlog.LogCapture;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.slf4j.event.Level;

/** {@link StallWatch} on a clock the test moves: one WARN after {@code stallWarning} of nothing but "no". */
@Timeout(value = 10, unit = TimeUnit.SECONDS)
class StallWatchTest {

    private static final Tier2Exception REFUSED = Tier2Exception.refused("at capacity");
    private static final Tier2Exception UNREACHABLE = Tier2Exception.unreachable("connection refused");

    private final AtomicLong clock = new AtomicLong(1_000);
    private final StallWatch watch = new StallWatch("r-7", Duration.ofSeconds(30), clock::get);

    @AfterEach
    void stopCapture() {
        LogCapture.stop();
    }

    private static List<String> warns() {
        return LogCapture.stop().stream().filter(e -> e.level() == Level.WARN).map(LogCapture.Event::message)
                .toList();
    }

    @Test
    void onlyARefusalPastTheWarningWarnsAndOnlyOnce() {
        LogCapture.start();
        clock.addAndGet(TimeUnit.SECONDS.toNanos(29));
        watch.heard(REFUSED, 3);
        clock.addAndGet(TimeUnit.SECONDS.toNanos(1));
        watch.heard(UNREACHABLE, 4);
        clock.addAndGet(TimeUnit.SECONDS.toNanos(5));
        watch.heard(REFUSED, 5);

        assertEquals(List.of("request r-7 has heard nothing but REFUSED/UNREACHABLE for 30000 ms: 4 dial(s), the"
                + " last UNREACHABLE: connection refused (is the tier2 address right, the fleet up?)"), warns());
        assertSame(REFUSED, watch.last());
    }

    @Test
    void anAdmissionOrAJobThatRanStartsTheCountAgain() {
        LogCapture.start();
        clock.addAndGet(TimeUnit.SECONDS.toNanos(20));
        watch.admitted();
        clock.addAndGet(TimeUnit.SECONDS.toNanos(20));
        watch.heard(Tier2Exception.retryable("stream reset", null), 2);
        clock.addAndGet(TimeUnit.SECONDS.toNanos(29));
        watch.heard(REFUSED, 3);

        assertEquals(List.of(), warns());
    }

    @Test
    void afterAnAdmissionTheCountStartsAtTheFirstNo() {
        // A job that got in and ran for 40 s, then the first refusal: one "no" is not 40 s of them.
        LogCapture.start();
        watch.admitted();
        clock.addAndGet(TimeUnit.SECONDS.toNanos(40));
        watch.heard(REFUSED, 2);
        clock.addAndGet(TimeUnit.SECONDS.toNanos(29));
        watch.heard(REFUSED, 3);
        watch.admitted();
        watch.admitted();
        clock.addAndGet(TimeUnit.SECONDS.toNanos(5));
        watch.heard(REFUSED, 5);
        clock.addAndGet(TimeUnit.SECONDS.toNanos(29));
        watch.heard(REFUSED, 6);
        assertEquals(List.of(), warns(), "at most 29 s of \"no\" since the first one after each admission");

        LogCapture.start();
        clock.addAndGet(TimeUnit.SECONDS.toNanos(1));
        watch.heard(UNREACHABLE, 7);
        assertEquals(List.of("request r-7 has heard nothing but REFUSED/UNREACHABLE for 30000 ms: 7 dial(s), the"
                + " last UNREACHABLE: connection refused (is the tier2 address right, the fleet up?)"), warns());
    }

    @Test
    void aWarningTooLongForTheNanoClockNeverWarns() {
        // 10^6 years do not fit a long of nanoseconds: as good as no warning, not a warning at once.
        StallWatch never = new StallWatch("r-8", Duration.ofDays(365L * 1_000_000), clock::get);
        LogCapture.start();
        clock.addAndGet(TimeUnit.DAYS.toNanos(365L * 100));
        never.heard(REFUSED, 1);

        assertEquals(List.of(), warns());
        assertSame(REFUSED, never.last());
    }

    @Test
    void nothingHeardIsNoCause() {
        assertNull(watch.last());
    }
}
