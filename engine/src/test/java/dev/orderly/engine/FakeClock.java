package dev.orderly.engine;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/** A clock that moves only when told: a queue's not-before times become exact numbers. */
final class FakeClock implements LongSupplier {
    static final long START = 1_000_000_000L;
    private final AtomicLong now = new AtomicLong(START);

    @Override
    public long getAsLong() {
        return now.get();
    }

    void advance(Duration by) {
        now.addAndGet(by.toNanos());
    }
}
