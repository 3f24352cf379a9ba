package dev.orderly.stress.model;

import dev.orderly.api.JobKey;

/** One step of a schedule: an operation on the launch queue for one job. */
record Op(Kind kind, JobKey key) {

    /** The launch queue's operations, plus the cancellation of a waiting job. */
    enum Kind {
        /** {@code awaitTurn(key)}, on a new virtual thread for the job. */
        TURN,
        /** {@code refused(key)}, from the controller thread. */
        REFUSED,
        /** {@code failed(key)}, from the controller thread. */
        FAILED,
        /** {@code leave(key)}, from the controller thread. */
        LEAVE,
        /** Interrupt the thread waiting in {@code awaitTurn(key)}. */
        INTERRUPT
    }

    @Override
    public String toString() {
        return kind + "(" + key.segment() + "/" + key.stage() + ")";
    }
}
