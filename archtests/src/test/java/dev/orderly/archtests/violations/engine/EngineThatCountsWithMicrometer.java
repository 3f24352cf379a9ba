package dev.orderly.archtests.violations.engine;

import io.micrometer.core.instrument.Counter;

/** Bad: the engine counts dials with Micrometer instead of telling a listener. */
public final class EngineThatCountsWithMicrometer {
    public void dialed(Counter dials) {
        dials.increment();
    }
}
