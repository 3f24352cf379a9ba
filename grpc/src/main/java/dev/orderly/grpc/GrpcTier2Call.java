package dev.orderly.grpc;

import dev.orderly.api.Job;
import dev.orderly.api.Tier2Call;
import dev.orderly.api.Tier2Exception;
import dev.orderly.grpc.proto.ProcessRangeRequest;
import dev.orderly.grpc.proto.ProcessRangeResponse;
import io.grpc.Status;
import io.grpc.stub.ClientCallStreamObserver;
import io.grpc.stub.ClientResponseObserver;
import java.time.Duration;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * One {@code ProcessRange} call, seen from the tier1: the gRPC stream's events arrive on gRPC's threads and are turned
 * into the two blocking waits the engine makes, {@link #awaitAdmitted()} (inside {@code dial}) and {@link #await()}.
 * The waits are the project's own, a {@link ReentrantLock} {@link Condition}, rather than a blocking stub, so a
 * waiting virtual thread parks without pinning and an interrupt cancels the call.
 *
 * <h2>State (all guarded by {@code lock})</h2>
 * <ul>
 *   <li>{@code admitted} turns true once, when {@code Admitted} arrives; {@code outcome} is set once, when the stream
 *       ends (null = completed), and then {@code ended} is true. Both only move forward.
 *   <li>{@code changed} is signalled on every change; there is exactly one waiter at a time (the job's thread), so
 *       {@code signalAll} wakes no herd.
 *   <li>{@code stream} is written once by gRPC before any event (in {@code beforeStart}) and read by {@link #cancel}.
 * </ul>
 * A {@code Completed} or {@code Failed} message decides the outcome, whatever the close status says afterwards, and
 * {@link #await()} returns (or throws) at it: it is the job's end in the protocol, and a tier2 that freezes before it
 * closes the stream must not hold a job that is done. {@link #close()} then cancels the stream that was left open.
 *
 * <p>This class is thread-safe: gRPC's callbacks, the job's thread and {@link #close()} may race.
 */
final class GrpcTier2Call implements Tier2Call, ClientResponseObserver<ProcessRangeRequest, ProcessRangeResponse> {

    private static final Tier2Exception COMPLETED = null;

    private final String what;
    private final boolean plaintext;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();

    // guarded by lock
    private ClientCallStreamObserver<ProcessRangeRequest> stream;
    // guarded by lock
    private boolean admitted;
    // guarded by lock
    private boolean decided;
    // guarded by lock
    private Tier2Exception decision;
    // guarded by lock
    private boolean ended;
    // guarded by lock
    private Tier2Exception outcome;
    // guarded by lock
    private boolean deadlineBeforeAdmitted;

    /** @param plaintext whether the client speaks without TLS, for what a connection closed unanswered says */
    GrpcTier2Call(Job job, String target, boolean plaintext) {
        this.plaintext = plaintext;
        this.what = job.requestId() + " segment " + job.key().segment() + " stage " + job.key().stage()
                + " attempt " + job.attempt() + " (" + target + ")";
    }

    /** The job and the target, for messages. */
    String what() {
        return what;
    }

    @Override
    public void beforeStart(ClientCallStreamObserver<ProcessRangeRequest> requestStream) {
        lock.lock();
        try {
            this.stream = requestStream;
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void onNext(ProcessRangeResponse response) {
        lock.lock();
        try {
            switch (response.getMessageCase()) {
                case ADMITTED -> admitted = true;
                case COMPLETED -> decide(COMPLETED);
                case FAILED -> decide(StatusMapping.failed(response.getFailed().getReason(),
                        response.getFailed().getFatal(), what));
                default -> {
                    return; // Update, or a message this version does not know: progress only
                }
            }
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void onError(Throwable t) {
        Status status = Status.fromThrowable(t);
        boolean wasAdmitted = isAdmitted();
        if (status.getCode() == Status.Code.DEADLINE_EXCEEDED && !wasAdmitted) {
            lock.lock();
            try {
                deadlineBeforeAdmitted = true;
            } finally {
                lock.unlock();
            }
        }
        end(StatusMapping.toException(status, wasAdmitted, what, plaintext));
    }

    /** Whether the call's deadline passed before any tier2 admitted it (or refused it): nobody answered. */
    boolean deadlinePassedBeforeAdmitted() {
        lock.lock();
        try {
            return deadlineBeforeAdmitted;
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void onCompleted() {
        end(StatusMapping.endedWithoutCompleted(isAdmitted(), what));
    }

    /**
     * Blocks until the tier2 has admitted the job (returns true), the call has ended first (throws why), or
     * {@code timeout} has passed (returns false; the caller cancels the call).
     *
     * @throws InterruptedException if interrupted while waiting; the call is then cancelled
     */
    boolean awaitAdmitted(Duration timeout) throws Tier2Exception, InterruptedException {
        try {
            return waitFor(true, timeout.toNanos());
        } catch (InterruptedException e) {
            cancel("dial interrupted");
            throw e;
        }
    }

    @Override
    public void await() throws Tier2Exception, InterruptedException {
        try {
            waitFor(false, Long.MAX_VALUE);
        } catch (InterruptedException e) {
            cancel("job cancelled by the tier1");
            throw e;
        }
    }

    /**
     * Waits until the call is admitted (if {@code admission}) or, otherwise, a {@code Completed} or {@code Failed}
     * decided it, or it has ended, at most {@code nanos}, and throws why it ended if it did not end as wanted. Returns
     * false only when the time ran out. The caller cancels on an interrupt, after this has let go of the lock.
     */
    private boolean waitFor(boolean admission, long nanos) throws Tier2Exception, InterruptedException {
        lock.lock();
        try {
            while (!ended && !(admission ? admitted : decided)) {
                if (nanos == Long.MAX_VALUE) {
                    changed.await();
                } else if (nanos <= 0) {
                    return false;
                } else {
                    nanos = changed.awaitNanos(nanos);
                }
            }
            if (admission && admitted) {
                return true;
            }
            if (!admission && decided) {
                if (decision != null) {
                    throw decision;
                }
                return true;
            }
            if (outcome != null) {
                throw outcome;
            }
            if (admission) {
                throw StatusMapping.endedWithoutCompleted(false, what); // Completed with no Admitted first
            }
            return true;
        } finally {
            lock.unlock();
        }
    }

    /** Cancels the gRPC call if it is still open: the tier2 stops the job and frees its slot. Never throws. */
    @Override
    public void close() {
        cancel("call closed by the tier1");
    }

    private void cancel(String why) {
        ClientCallStreamObserver<ProcessRangeRequest> s;
        lock.lock();
        try {
            if (ended) {
                return;
            }
            s = stream;
        } finally {
            lock.unlock();
        }
        if (s != null) {
            s.cancel(why, null); // outside the lock: gRPC calls onError back, possibly on this thread
        }
    }

    private boolean isAdmitted() {
        lock.lock();
        try {
            return admitted;
        } finally {
            lock.unlock();
        }
    }

    /** Records what a Completed or Failed message says; the first one wins. Call with the lock held. */
    private void decide(Tier2Exception e) {
        if (!decided) {
            decided = true;
            decision = e;
        }
    }

    private void end(Tier2Exception closedAs) {
        lock.lock();
        try {
            if (ended) {
                return;
            }
            ended = true;
            outcome = decided ? decision : closedAs;
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }
}
