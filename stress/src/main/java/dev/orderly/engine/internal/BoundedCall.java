package dev.orderly.engine.internal;

import dev.orderly.stress.Waiter;
import java.util.concurrent.Callable;

/**
 * One call on its own virtual thread, so that a jcstress actor never blocks forever on a scheduler that lost a
 * wake-up: {@link #await} waits at most {@link Waiter#PATIENCE} for the call's result and reports {@link #NEVER_WOKE},
 * a forbidden outcome in every test, if it is still waiting then (and interrupts it, so that its thread ends).
 *
 * <p>A wake-up takes microseconds; the patience is five seconds, so only a lost wake-up, never machine noise, can
 * produce {@code NEVER_WOKE}.
 */
final class BoundedCall {

    /** The call was still waiting after {@link Waiter#PATIENCE}: a lost wake-up. */
    static final long NEVER_WOKE = Waiter.NEVER_WOKE;
    /** The call threw. */
    static final long THREW = Waiter.THREW;

    private final Thread thread;
    private volatile long outcome = NEVER_WOKE;

    private BoundedCall(Callable<Long> call) {
        thread = Thread.ofVirtual().name("bounded-call").unstarted(() -> {
            try {
                outcome = call.call();
            } catch (Exception e) {
                outcome = THREW;
            }
        });
    }

    /** Starts {@code call} on a virtual thread of its own. */
    static BoundedCall start(Callable<Long> call) {
        BoundedCall bounded = new BoundedCall(call);
        bounded.thread.start();
        return bounded;
    }

    /** The call's result, {@link #THREW}, or {@link #NEVER_WOKE} after {@link Waiter#PATIENCE}. */
    long await() {
        return Waiter.endsWithinPatience(thread) ? outcome : NEVER_WOKE;
    }
}
