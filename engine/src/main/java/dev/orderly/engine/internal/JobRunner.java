package dev.orderly.engine.internal;

import dev.orderly.api.EngineConfig;
import dev.orderly.api.Job;
import dev.orderly.api.JobKey;
import dev.orderly.api.RequestFailedException;
import dev.orderly.api.RequestListener;
import dev.orderly.api.Tier2Call;
import dev.orderly.api.Tier2Client;
import dev.orderly.api.Tier2Exception;
import dev.orderly.engine.DialGate;
import java.util.function.LongSupplier;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

/**
 * Runs one unit to the end, on the retry path (every dial first waits its turn; the counts belong to the unit):
 *
 * <table>
 *   <caption>Outcomes of one dial</caption>
 *   <tr><th>outcome</th><th>what happens</th></tr>
 *   <tr><td>{@code dial} throws REFUSED or UNREACHABLE</td><td>{@code refused(key)}; redial after
 *       {@code refusedDelay}, or sooner when a job of the request ends ({@code slotFreed}); not counted</td></tr>
 *   <tr><td>{@code dial} returns</td><td>{@code leave(key)} at once, then {@code await()}</td></tr>
 *   <tr><td>EXECUTION_TIMEOUT (dial or await)</td><td>counted; at {@code maxExecutionTimeouts} the request fails, else
 *       {@code failed(key)}</td></tr>
 *   <tr><td>RETRYABLE (dial or await)</td><td>counted; at {@code maxFailures} the request fails, else
 *       {@code failed(key)}</td></tr>
 *   <tr><td>FATAL, a {@code RuntimeException} from the client, anything else</td><td>the request fails</td></tr>
 *   <tr><td>{@code await()} returns</td><td>the unit is done</td></tr>
 * </table>
 *
 * <p>Every dial, the first and each retry, first waits its turn at the {@link DialGate}. A REFUSED or UNREACHABLE
 * thrown by {@code await()} (a tier2 that admitted the job and then says nothing ran) is treated as a refusal, as its
 * {@link Tier2Exception#neverRan()} says.
 *
 * <p>A unit that stops being needed (a higher stage of its segment is done) has its job cancelled through its
 * {@link JobHandle}: the call is closed and the thread interrupted, wherever it waits (its turn, a delay,
 * {@code dial} or {@code await}). The job then ends quietly ({@link Outcome#ABANDONED}), counting nothing: an
 * interrupt meant for its unit alone is cleared, while one that cancels the whole request propagates. A call whose
 * {@code await()} returns normally after that {@code close()} ends the job the same way, not as done.
 *
 * <p><b>Stop by state.</b> The interrupt is the fast path, never the only one: after every wait, before every dial
 * and when a dial returns, the job asks whether its unit is still needed, which is false once the request stopped
 * (failed, cancelled, past its deadline, every segment delivered). So a client that answers the interrupt with a
 * {@code Tier2Exception}, or by returning, is stopped all the same. A job withdrawn to give its worker up to the
 * client's re-run ({@link Outcome#WITHDRAWN}) stops at the same points.
 *
 * <p><b>Every admitted job hears its end</b>: after {@code onAdmitted} exactly one of {@code onJobDone},
 * {@code onFailed} and {@code onAbandoned} follows (or {@code onRefused}, when {@code await} says nothing ran), an
 * interrupt or an {@code Error} included.
 *
 * <p>On every path out, including interruption, the job leaves the gate and its {@link Tier2Call} is closed, once.
 * Thread-safe: the per-job counts live on the calling thread's stack; one instance serves all jobs of a request.
 */
final class JobRunner {

    private static final Logger LOG = LoggerFactory.getLogger(JobRunner.class);

    private final String requestId;
    private final int stages;
    private final Tier2Client tier2;
    private final DialGate gate;
    private final EngineConfig config;
    private final RequestCounters counters;
    private final RequestListener listener;
    private final Predicate<JobKey> needed;
    private final StallWatch stall;
    private final LongSupplier reading;

    /**
     * @param stages the request's stage count, which every dial carries ({@link Job#stages()}): a tier2 that writes
     *     the outputs drops a lower stage's
     * @param needed tells whether a unit is still needed (false too once the request stopped); a job whose unit is
     *     not stops instead of dialing, retrying or failing
     * @param stall hears every error and admission, to warn of a request that only ever hears "no"
     * @param reading the segment the client waits for now, which every dial carries ({@link Job#readingSegment()})
     */
    JobRunner(String requestId, int stages, Tier2Client tier2, DialGate gate, EngineConfig config,
            RequestCounters counters, RequestListener listener, Predicate<JobKey> needed, StallWatch stall,
            LongSupplier reading) {
        this.stall = stall;
        this.requestId = requestId;
        this.stages = stages;
        this.tier2 = tier2;
        this.gate = gate;
        this.config = config;
        this.counters = counters;
        this.listener = listener;
        this.needed = needed;
        this.reading = reading;
    }

    /** How a job ended without failing the request. */
    enum Outcome {
        /** The unit is done. */
        DONE,
        /**
         * The unit was no longer needed (its segment was delivered, a job of a higher stage of its segment is done,
         * or the request stopped) when the job was about to dial, retry or fail: the job stopped quietly.
         */
        ABANDONED,
        /**
         * The job gave its worker up to the re-run of the client's segment before its next dial; its unit was not
         * run and is launched again later.
         */
        WITHDRAWN
    }

    /** The next step after one dial. */
    private enum Step { DONE, RETRY, ABANDON, WITHDRAW }

    /**
     * Runs the unit of {@code key} until it is done; {@code tally}, which starts from the unit's counts, counts every
     * dial (and numbers the attempts), failure and timeout.
     *
     * @throws RequestFailedException when the unit failed for good; the request must fail with it
     * @throws InterruptedException when the request was cancelled
     */
    Outcome run(JobKey key, UnitCounts.Tally tally, JobHandle handle)
            throws RequestFailedException, InterruptedException {
        if (LogContext.KEPT) {
            MDC.put("request", requestId);
            MDC.put("segment", Long.toString(key.segment()));
            MDC.put("stage", Integer.toString(key.stage()));
        }
        boolean done = false;
        try {
            // A job handed out just before the client's re-run found every worker taken, and started after it looked:
            // it is not on a tier2, so it gives its worker up before its first dial, as a waiting job would have.
            boolean givesUp = handle.givesUpForTheRerun();
            if (!givesUp && tally.failureDelayOwed) {
                // An earlier job of the unit got in and failed, and was withdrawn before its next dial: that dial,
                // now this job's, waits the failure delay, counted from now. The failure sent it to wait: the listener
                // hears so (the withdrawal ended the failed job's wait; the queue's join would say "queued").
                listener.onFailureDelayOwed(key);
                gate.failed(key);
            } else if (!givesUp && tally.refusedDelayOwed) {
                // An earlier job of the unit was refused and withdrawn before its redial: that redial, now this job's,
                // waits the refused delay, counted from now (or, ordered, until a job of the request ends on a tier2).
                // The refusal sent it to wait: the listener hears so, as for an owed failure delay.
                listener.onRefusedDelayOwed(key);
                gate.refused(key);
            }
            while (true) {
                Step step;
                try {
                    step = givesUp ? Step.WITHDRAW : attempt(key, tally, handle);
                } catch (InterruptedException e) {
                    if (!handle.cancelled() && !handle.withdrawn()) {
                        throw e;
                    }
                    // Our unit was cancelled or withdrawn, not the request: the interrupt was meant for us alone. A
                    // withdrawal names the end even if a cancel followed (none can precede it), as at stopBeforeDial:
                    // its worker, and under an engine-wide cap its permit, were promised to the client's re-run.
                    step = handle.withdrawn() ? Step.WITHDRAW : Step.ABANDON;
                }
                if (step == Step.RETRY && handle.givesUpForTheRerun()) {
                    // Off its tier2 and about to wait out a delay while the client's re-run waits for a worker: it
                    // gives its worker up now, not after the delay; a failure delay it owes goes with its counts.
                    step = Step.WITHDRAW;
                }
                switch (step) {
                    case DONE -> {
                        done = true;
                        return Outcome.DONE;
                    }
                    case ABANDON, WITHDRAW -> {
                        // No interrupt of the handle can come after this, so none is left on the thread.
                        if (handle.settle()) {
                            Thread.interrupted();
                        }
                        LOG.debug("{} {}; job stops", key, step == Step.ABANDON ? "no longer needed"
                                : "gives its worker up to the re-run of the client's segment");
                        listener.onAbandoned(key);
                        return step == Step.ABANDON ? Outcome.ABANDONED : Outcome.WITHDRAWN;
                    }
                    case RETRY -> {
                        // go round for another turn
                    }
                }
            }
        } finally {
            if (!done) {
                // A done job left the gate when the tier2 took it, and has not dialed since: no second lock round trip.
                gate.leave(key);
            }
            if (LogContext.KEPT) {
                MDC.remove("request");
                MDC.remove("segment");
                MDC.remove("stage");
            }
        }
    }

    /**
     * Whether the job must not dial now: its unit withdrawn, no longer needed, or the request stopped. Checked after
     * every wait and before every dial, so a client that swallows the interrupt is stopped all the same.
     */
    private Step stopBeforeDial(JobKey key, JobHandle handle) {
        if (handle.withdrawn()) {
            return Step.WITHDRAW;
        }
        return needed.test(key) ? null : Step.ABANDON;
    }

    /** One turn and one dial. */
    private Step attempt(JobKey key, UnitCounts.Tally attempts, JobHandle handle)
            throws RequestFailedException, InterruptedException {
        gate.awaitTurn(key);
        Step stop = stopBeforeDial(key, handle);
        if (stop != null) {
            // Its turn unused: an early turn a freed slot gave it goes to the next refused job.
            gate.leaveWithoutDialing(key);
            return stop;
        }
        if (!handle.dialing(true)) {
            gate.leaveWithoutDialing(key);
            // Withdrawn first, then maybe cancelled: WITHDRAWN, as at stopBeforeDial (the re-run keeps the permit).
            return handle.withdrawn() ? Step.WITHDRAW : Step.ABANDON;
        }
        // The request's first dial starts its stall count: a wait for a place before it was no refusal, nor a job
        // stopped just before its dial.
        stall.dialing();
        attempts.failureDelayOwed = false;
        attempts.refusedDelayOwed = false;
        // The client may have read past this segment since the check above: the job is then abandoned, rank 0 meanwhile.
        // The count stops at the int's top rather than wrap to a negative attempt, which no Job takes: a unit refused
        // that many times (2^31 dials, an unreachable fleet and a refusedDelay of 0) still dials on.
        if (attempts.dials < Integer.MAX_VALUE) {
            attempts.dials++;
        }
        Job job = new Job(requestId, key, attempts.dials, Math.min(reading.getAsLong(), key.segment()), stages);
        Tier2Call call = null;
        Tier2Exception error = null;
        Error dialError = null;
        try {
            listener.onDial(job);
            LOG.debug("dial {} attempt {}", key, job.attempt());
            call = tier2.dial(job);
        } catch (Tier2Exception e) {
            error = e;
        } catch (InterruptedException e) {
            throw e;
        } catch (Exception e) {
            // A RuntimeException, or a checked exception thrown undeclared (Kotlin, @SneakyThrows): fatal, as documented.
            error = asFatal(e);
        } catch (VirtualMachineError e) {
            throw e;
        } catch (Error e) {
            dialError = e;
        } finally {
            // Before the answer is handled: from here a withdrawal interrupts the job wherever it waits next.
            handle.dialing(false);
            // Counted as it returns, however it returns, before the answer is handled (the stall warning reads it).
            if (call != null) {
                counters.dialAdmitted();
            } else {
                counters.dialNotAdmitted();
            }
        }
        if (dialError != null) {
            // Not admitted: the listener hears of it only as a failure of the unit, not as the echo of the stop.
            throw failedByError(job, "client", dialError, false, handle);
        }
        if (error != null) {
            return retryOrFail(job, error, attempts, handle);
        }
        if (call == null) {
            return retryOrFail(job, Tier2Exception.fatal("tier2 client returned no call from dial", null), attempts,
                    handle);
        }
        try {
            return admitted(job, call, attempts, handle);
        } catch (InterruptedException e) {
            // Settled first, so that nothing cancels or withdraws the job from here: run() then reads the same answer
            // as this, and the job hears its end once, here or there.
            handle.settle();
            if (!handle.cancelled() && !handle.withdrawn()) {
                // Cut short by the end of the request: an admitted job always hears its end.
                listener.onAbandoned(key);
            }
            throw e;
        } catch (VirtualMachineError e) {
            throw e;
        } catch (Error e) {
            // Admitted: the job hears its end whatever the Error is the echo of.
            throw failedByError(job, "call", e, true, handle);
        }
    }

    /**
     * An {@code Error} from the tier2 client ({@code who}: its dial or its call) fails the request with the Error
     * itself, as a RuntimeException there fails it as fatal. Unless it is the echo of the request's stop, it is a
     * failure of the unit, logged as every failure is and heard by the listener; {@code alwaysHeard} is for an
     * admitted job, which hears its end either way.
     */
    private Error failedByError(Job job, String who, Error e, boolean alwaysHeard, JobHandle handle) {
        // A unit covered while it dialed is no longer needed, but the Error still fails the request (only the stop's
        // echo is not reported): it is the unit's failure, heard as such, unless the stop's cancel has come to it, first
        // or after the cover: the stopped scope reports no Error then, and a request that ended well heard a failure.
        boolean ofTheUnit = needed.test(job.key()) || handle.cancelled() && !handle.stopCame();
        if (ofTheUnit) {
            // The stop may come right after the read above, the scope then ignores the Error: the request must fail
            // with it all the same, as the listener hears (RequestRun keeps it).
            handle.errorHeard();
            LOG.warn("{} failed fatally on attempt {}: tier2 {} threw {}", job.key(), job.attempt(), who, e.toString());
        }
        if (ofTheUnit || alwaysHeard) {
            listener.onFailed(job, Tier2Exception.fatal("tier2 " + who + " threw " + e, e));
        }
        return e;
    }

    /**
     * The tier2 took the job: await its end. Every way out of here but an interrupt or an {@code Error} ends the
     * admitted job with exactly one of {@code onJobDone}, {@code onFailed} or (through ABANDON) {@code onAbandoned};
     * the caller sees to those two. An {@code Error} from a call closed because its unit was covered ends it as
     * abandoned, as an exception there does.
     */
    private Step admitted(Job job, Tier2Call call, UnitCounts.Tally attempts, JobHandle handle)
            throws RequestFailedException, InterruptedException {
        JobKey key = job.key();
        // The call is closed exactly once: by this job, unless it was attached and cancel() took it.
        boolean attached = false;
        // The call's failure, handled once the call is closed and its slot reported free: a job re-queued as refused
        // before slotFreed would be the refused job that slotFreed lets dial at once, cutting its own delay short.
        Tier2Exception failure;
        try {
            gate.leave(key);
            stall.admitted();
            listener.onAdmitted(job);
            attached = handle.attach(call);
            if (!attached) {
                // Cancelled or withdrawn between the dial's return and here: the call is closed, not awaited. A
                // withdrawal, which a cancel may follow but never precede, names the end, as at stopBeforeDial.
                return handle.withdrawn() ? Step.WITHDRAW : Step.ABANDON;
            }
            if (!needed.test(key)) {
                // The request stopped while the dial was in flight (a client may answer the interrupt by returning).
                return Step.ABANDON;
            }
            call.await();
            if (handle.cancelled()) {
                // await returned because cancel() closed the call: the unit was covered, not done by this job.
                return Step.ABANDON;
            }
            failure = null;
        } catch (Tier2Exception e) {
            if (handle.cancelled()) {
                return Step.ABANDON;
            }
            failure = e;
        } catch (InterruptedException e) {
            throw e;
        } catch (Exception e) {
            // A RuntimeException, or a checked exception thrown undeclared (a Kotlin call's SocketException once its
            // close closed the socket): as a Tier2Exception, the echo of a close if the unit was covered, else fatal.
            if (handle.cancelled()) {
                return Step.ABANDON;
            }
            failure = asFatal(e);
        } catch (Error e) {
            // From a call the engine closed because its unit was covered, an Error is the call's own echo of the close
            // (a client's assertion, say), as an exception would be: the job ends quietly. The VM's own goes up.
            if (!handle.cancelled() || e instanceof VirtualMachineError) {
                throw e;
            }
            return Step.ABANDON;
        } finally {
            Tier2Call mine = attached ? handle.detach() : call;
            if (mine != null) {
                RunningJobs.close(mine, key);
            }
            // The job has ended on the tier2, so its slot there is free: the request's next refused job may try now.
            gate.slotFreed();
        }
        if (failure != null) {
            return retryOrFail(job, failure, attempts, handle);
        }
        attempts.successes++;
        listener.onJobDone(job);
        LOG.debug("{} done after {} dial(s)", key, job.attempt());
        return Step.DONE;
    }

    /**
     * Applies the retry table to one error: counts it, then returns RETRY to dial again, or throws to fail the
     * request. A unit that is no longer needed is ABANDONed instead (WITHDRAWn if its job was withdrawn first),
     * whatever the error: it can not hurt the client any more. An error that says the job ran (a failure, a timeout,
     * a fatal error) heard once the unit is no longer needed is not counted and not reported as a failure: it is
     * mostly the call's answer to the engine's own stop (a client that answers the interrupt with a
     * {@code Tier2Exception}), and the job ends as abandoned (or withdrawn).
     */
    private Step retryOrFail(Job job, Tier2Exception e, UnitCounts.Tally attempts, JobHandle handle)
            throws RequestFailedException {
        JobKey key = job.key();
        if (!e.neverRan() && !needed.test(key)) {
            LOG.debug("{} ended with {} on attempt {} after it stopped being needed; not counted: {}", key, e.kind(),
                    job.attempt(), e.getMessage());
            return stoppedByCoverOrWithdrawal(handle);
        }
        count(job, e, attempts);
        if (!needed.test(key)) {
            LOG.debug("{} failed on attempt {} after it stopped being needed: {}", key, job.attempt(), e.getMessage());
            return stoppedByCoverOrWithdrawal(handle);
        }
        if (e.neverRan()) {
            // Nothing ran: the unit's next dial, whichever job makes it (a job withdrawn now leaves it to the next),
            // waits the refused delay.
            attempts.refusedDelayOwed = true;
        }
        if (e.neverRan() && handle.withdrawn()) {
            // Withdrawn while it dialed: it gives its worker up now, before its next dial.
            return Step.WITHDRAW;
        }
        switch (e.kind()) {
            case REFUSED, UNREACHABLE -> {
                LOG.debug("{} refused on attempt {}: {}", key, job.attempt(), e.getMessage());
                gate.refused(key);
                return Step.RETRY;
            }
            case EXECUTION_TIMEOUT -> {
                LOG.warn("{} timed out on attempt {} ({} of {}): {}", key, job.attempt(), attempts.timeouts,
                        config.maxExecutionTimeouts(), e.getMessage());
                if (attempts.timeouts >= config.maxExecutionTimeouts()) {
                    throw new RequestFailedException(key, key + " timed out " + times(attempts.timeouts)
                            + ", giving up: " + e.getMessage(), e);
                }
                return retryAfterFailure(key, attempts, handle);
            }
            case RETRYABLE -> {
                LOG.warn("{} failed on attempt {} ({} of {}): {}", key, job.attempt(), attempts.failures,
                        config.maxFailures(), e.getMessage());
                if (attempts.failures >= config.maxFailures()) {
                    throw new RequestFailedException(key, key + " failed " + times(attempts.failures)
                            + ", giving up: " + e.getMessage(), e);
                }
                return retryAfterFailure(key, attempts, handle);
            }
            case FATAL -> {
                LOG.warn("{} failed fatally on attempt {}: {}", key, job.attempt(), e.getMessage());
                throw new RequestFailedException(key, key + " failed fatally on attempt " + job.attempt()
                        + ", giving up: " + e.getMessage(), e);
            }
            default -> throw new IllegalStateException("unknown kind " + e.kind(), e);
        }
    }

    /**
     * A job no longer needed when its dial's error came: WITHDRAWN if it was withdrawn (while it dialed; a cover may
     * follow a withdrawal, never precede it), as at stopBeforeDial: under an engine-wide cap its permit was promised to
     * the client's re-run, which ABANDONED would give back to the cap.
     */
    private static Step stoppedByCoverOrWithdrawal(JobHandle handle) {
        return handle.withdrawn() ? Step.WITHDRAW : Step.ABANDON;
    }

    /**
     * The job got in and failed, under its give-up limits: its unit's next dial waits the failure delay. A job
     * withdrawn while it dialed gives its worker up now, not after the delay, and leaves the delay to its unit's next
     * job, with its counts.
     */
    private Step retryAfterFailure(JobKey key, UnitCounts.Tally attempts, JobHandle handle) {
        attempts.failureDelayOwed = true;
        if (handle.withdrawn()) {
            return Step.WITHDRAW;
        }
        gate.failed(key);
        return Step.RETRY;
    }

    /** Counts one error in the job's and the request's figures and tells the listener. */
    private void count(Job job, Tier2Exception e, UnitCounts.Tally attempts) {
        stall.heard(e, counters.dials());
        switch (e.kind()) {
            case REFUSED, UNREACHABLE -> {
                counters.refusal();
                listener.onRefused(job, e);
            }
            case EXECUTION_TIMEOUT -> {
                counters.executionTimeout();
                attempts.timeouts++;
                listener.onFailed(job, e);
            }
            case RETRYABLE -> {
                counters.failure();
                attempts.failures++;
                listener.onFailed(job, e);
            }
            case FATAL -> listener.onFailed(job, e);
            default -> throw new IllegalStateException("unknown kind " + e.kind(), e);
        }
    }

    private static String times(int n) {
        return n == 1 ? "1 time" : n + " times";
    }

    private static Tier2Exception asFatal(Exception e) {
        return Tier2Exception.fatal("tier2 client threw " + e, e);
    }
}
