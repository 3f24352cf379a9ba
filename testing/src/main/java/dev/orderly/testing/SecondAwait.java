package dev.orderly.testing;

import dev.orderly.api.Job;

/** The kit's refusal of a second {@code await()} of one call: the engine awaits a call once, a test by hand may not. */
final class SecondAwait {

    private SecondAwait() {
    }

    static IllegalStateException refused(Job job) {
        return new IllegalStateException("await() was already called for job " + job.requestId() + " " + job.key()
                + " attempt " + job.attempt() + "; a call is awaited once");
    }
}
