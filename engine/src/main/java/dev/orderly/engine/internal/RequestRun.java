package dev.orderly.engine.internal;

import dev.orderly.api.EngineConfig;
import dev.orderly.api.JobKey;
import dev.orderly.api.Request;
import dev.orderly.api.RequestFailedException;
import dev.orderly.api.RequestListener;
import dev.orderly.api.RequestPlan;
import dev.orderly.api.RequestResult;
import dev.orderly.api.Tier2Client;
import dev.orderly.engine.DialGate;
import dev.orderly.engine.LaunchQueue;
import dev.orderly.engine.internal.jfr.JfrListener;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One request's parts, wired once, and its run: the scheduler over its board, the dial gate (the launch queue, or
 * the unordered baseline's per-job delay), the running jobs, the job runner, the output walker, the listener chain,
 * the counters, the deadline and the request scope. {@link #run} runs the scope, logs one summary line, tells the
 * listener how the request ended, and returns the result or throws; {@link #job} is one job's life inside it, from
 * its start in {@link RunningJobs} to its report to the {@link Scheduler}.
 *
 * <p>Used once, by the thread that called {@code Engine.run}; the scope's owner, which forks the jobs, is that thread
 * if it is virtual, else a virtual thread the scope starts for it (see {@link RequestScope}). The parts it holds are
 * each thread-safe as their own classes say, which is what the request's job threads rely on.
 */
final class RequestRun {

    // The request's lines keep the engine's logger name: log configurations and tests name OrderlyEngine.
    private static final Logger LOG = LoggerFactory.getLogger(OrderlyEngine.class);

    private final String id;
    private final RequestPlan plan;
    private final long lookahead;
    private final RequestCounters counters = new RequestCounters();
    private final SafeListener safe;
    private final RequestListener listener;
    private final JobPermits permits;
    private final Scheduler scheduler;
    private final DialGate gate;
    private final RunningJobs running;
    private final JobRunner runner;
    private final OutputWalker walker;
    private final RequestScope scope;

    /**
     * Wires the parts of {@code request}; starts nothing.
     *
     * @param scopes the request scopes of this JVM
     * @param threadObserver told of every thread the scope creates, before it starts (a test hook)
     * @param permits this request's share of the engine-wide job cap; closed when {@link #run} ends
     */
    RequestRun(Request request, EngineConfig config, RequestScope.Factory scopes, Consumer<Thread> threadObserver,
            JobPermits permits) {
        this.id = request.id();
        this.plan = request.plan();
        Deadline deadline = Deadline.after(request.deadline());
        // Asked only when a listener throws InterruptedException, once the parts are made (no job runs before): was an
        // interrupt sent to this thread, by the request's stop or by its job's cancel or withdrawal?
        this.safe = new SafeListener(id, request.listener(), this::interruptSentToThisThread);
        // JFR events are derived from the listener events, so the launch queue's paths carry no JFR code.
        this.listener = new JfrListener(id, safe, this::cutByTheRequestsEnd);
        this.lookahead = Scheduler.lookahead(config.lookaheadFactor(), plan.workers());
        Scheduler.checkStages(plan.stages());
        this.running = new RunningJobs(lookahead, plan.stages());
        this.permits = permits;
        this.scheduler = new Scheduler(plan, lookahead, request.resume(), permits);
        // A stopped request's calls are closed, not only its threads interrupted: a call may answer only the close.
        scheduler.whenStopped(running::cancelAll);
        this.gate = config.ordered()
                ? new LaunchQueue(plan.workers(), config, listener::onQueued)
                : new DelayGate(config);
        StallWatch stall = new StallWatch(id, config.stallWarning());
        // A job asks before every dial: past the deadline the request is as good as stopped, even while the walker
        // still waits for a busy client to return and notice.
        this.runner = new JobRunner(id, plan.stages(), request.tier2(), gate, config, counters, listener,
                key -> deadline.remainingNanos() > 0 && scheduler.isNeededByItsJob(key), stall, scheduler::reading);
        this.walker = new OutputWalker(id, plan, request.outputs(), request.client(), scheduler, counters, listener,
                deadline, request.resume(), running::withdrawHighestWaiting, stall::last);
        this.scope = scopes.open(id, scheduler, threadObserver);
    }

    /**
     * Whether the engine may have interrupted the calling thread, one of the request's: the request is being stopped
     * (a job the stop cancels is cancelled only once it is), or the thread's job was cancelled or withdrawn.
     */
    private boolean interruptSentToThisThread() {
        return scheduler.stopped() || running.interruptedForItsUnit(Thread.currentThread());
    }

    /**
     * Whether the job on the calling thread, which abandons its run, was cut short by the request's end: the request
     * stopped, and the job's own unit was neither cancelled (covered) nor withdrawn.
     */
    private boolean cutByTheRequestsEnd() {
        return scheduler.stopped() && !running.interruptedForItsUnit(Thread.currentThread());
    }

    /** Runs the request to its end; returns when every segment was delivered and every thread of it has ended. */
    RequestResult run() throws RequestFailedException, InterruptedException {
        LOG.debug("request {} starts: segments [{}, {}), {} stage(s), {} worker(s), look-ahead {}, {}", id,
                plan.startSegment(), plan.endSegment(), plan.stages(), plan.workers(), lookahead, gate);
        try {
            return runScoped();
        } finally {
            safe.logFailuresAfterTheFirst();
        }
    }

    private RequestResult runScoped() throws RequestFailedException, InterruptedException {
        Optional<Throwable> failure;
        try {
            try {
                failure = scope.run(() -> {
                    try {
                        walker.run();
                    } catch (VirtualMachineError e) {
                        throw running.kept(e);
                    }
                    return null;
                }, this::job);
            } finally {
                // Every thread of the request has ended: its share of the engine-wide cap is the others', the permits
                // of units handed out but never started (forked into a scope already cancelled) among them, before the
                // listener hears the request's end (it may take its time, or run a request of its own).
                scheduler.everyThreadEnded();
                permits.close();
            }
        } catch (InterruptedException e) {
            if (running.vmError() == null && !counters.deliveredAll()) {
                throw cancelled(e);
            }
            // A thread of the request met the VM's own error, which goes up as itself below; or every segment was
            // delivered before the interrupt came, which only cut into the wait for the threads nobody needed any
            // more: the request ended well, and the caller gets its result. Either way its interrupt is set again.
            Thread.currentThread().interrupt();
            failure = Optional.empty();
        } catch (RuntimeException | Error e) {
            // The owner itself broke (no thread could be made for a job, say); every thread of the request has ended.
            stoppedBy(e);
            throw e;
        }
        if (failure.isEmpty() && running.heardFailure() != null) {
            // A job's Error the listener heard as its unit's failure, which the scope, cancelled first, did not report.
            failure = Optional.of(running.heardFailure());
        }
        VirtualMachineError vmError = running.vmError();
        // The VM's own error, met by any thread of the request (after the scope's cancellation too, which reports
        // nothing more): thrown as itself, whatever else ended the request.
        return ended(vmError != null ? Optional.of(vmError) : failure);
    }

    /** The request was cancelled by an interrupt of its caller: {@code e}, with the figures so far. */
    private InterruptedException cancelled(InterruptedException e) {
        RequestResult partial = counters.resultSoFar();
        LOG.info("request {} cancelled by interrupt: {}", id, summary(partial, counters));
        // run's signature allows only InterruptedException here; the figures so far ride along as suppressed.
        e.addSuppressed(new RequestFailedException("request " + id + " cancelled by interrupt after "
                + partial.segmentsDelivered() + " of " + plan.segmentCount() + " segments delivered", null)
                .withPartialResult(partial));
        listener.onRequestCancelled(partial);
        return e;
    }

    private RequestResult ended(Optional<Throwable> failure) throws RequestFailedException {
        if (failure.isPresent() && failure.get() instanceof VirtualMachineError e) {
            // Every thread of the request has ended (the scope cancelled them); the VM's own error goes up unchanged.
            stoppedBy(e);
            throw e;
        }
        if (failure.isPresent()) {
            // One snapshot, taken once: the listener and the caller get equal figures.
            RequestResult partial = counters.resultSoFar();
            RequestFailedException failed = asRequestFailure(failure.get()).withPartialResult(partial);
            LOG.info("request {} failed: {}; {}", id, failed.getMessage(), summary(partial, counters));
            listener.onRequestFailed(partial, failed);
            throw failed;
        }
        RequestResult result = counters.result();
        if (LOG.isInfoEnabled()) {
            // Built only for a log that takes it: with INFO off, a small request allocates nothing for its summary.
            LOG.info("request {} done: {}", id, summary(result, counters));
        }
        listener.onRequestDone(result);
        return result;
    }

    /** The task the scope forks for the job of {@code key}: one job's life, a {@link UnitJob}. */
    private Callable<Void> job(JobKey key, UnitCounts prior) {
        return new UnitJob(key, prior);
    }

    /**
     * One job's life, run on its own thread by the scope: registered in {@link RunningJobs}, run on the retry path,
     * reported to the scheduler exactly once however it ends, and, when it succeeded, the jobs of the stages under it
     * in its segment cancelled. The task is the job's handle and tally too, so forking a job makes one object, not
     * three: made on the owner's thread, it is started and counted on only by the job's thread.
     */
    private final class UnitJob extends JobHandle implements Callable<Void> {

        UnitJob(JobKey key, UnitCounts prior) {
            super(key, prior);
        }

        @Override
        public Void call() throws RequestFailedException, InterruptedException {
            JobKey key = key();
            JobRunner.Outcome outcome = null;
            running.start(this);
            try {
                outcome = runner.run(key, this, this);
            } catch (InterruptedException e) {
                if (scheduler.stopped()) {
                    // The request's cancellation (it stops the scheduler before it interrupts the jobs): its echo,
                    // which no scope reports.
                    throw e;
                }
                // Not a cancellation: the tier2 client, its call or the listener, which run on this thread, threw an
                // InterruptedException of their own or left the interrupt set. Named like any failure of the unit;
                // the interrupt stays on the thread. (Should a cancellation race this, the scope reports it not.)
                Thread.currentThread().interrupt();
                throw new RequestFailedException(key, key + " failed " + attemptNamed() + ": the job's thread was"
                        + " interrupted, and not by a cancellation of the request (the Tier2Client, its Tier2Call or"
                        + " the listener, which run on it, threw InterruptedException or left the interrupt set)", e);
            } catch (VirtualMachineError e) {
                // Nothing can be trusted after it: it propagates as itself, once the scope has cancelled the rest (kept
                // for run too, since a scope already cancelled reports nothing more).
                throw running.kept(e);
            } catch (Error e) {
                // An Error from the tier2 client or the store is still this unit's failure: keep the unit.
                RequestFailedException failure = new RequestFailedException(key, key + " failed with " + e + " "
                        + attemptNamed() + ", giving up", e);
                // Heard as the unit's failure: the request fails with it, also if the scope was cancelled meanwhile.
                throw heardAnError() ? running.keptHeard(failure) : failure;
            } finally {
                running.end(this);
                if (outcome == null) {
                    // This job fails the request (or it was cancelled): the worker it frees must not go to another
                    // unit in the moment before the scope learns of the failure and cancels the request.
                    scheduler.jobFailed();
                } else if (outcome == JobRunner.Outcome.WITHDRAWN) {
                    scheduler.jobWithdrawn(key, counts());
                } else {
                    scheduler.jobEnded(key, outcome == JobRunner.Outcome.DONE, counts());
                }
            }
            if (outcome == JobRunner.Outcome.DONE) {
                // The board now has the stages under this one DONE: their jobs, if any, are cancelled.
                running.cancelCoveredBy(key);
            }
            return null;
        }

        /**
         * The attempt a failure of this job came in: {@code on attempt N} (the unit's dials so far, which number
         * {@code Job.attempt} from 1), or {@code before its first dial} when the unit has not dialed (no Job has an
         * attempt 0).
         */
        private String attemptNamed() {
            return dials == 0 ? "before its first dial" : "on attempt " + dials;
        }
    }

    /**
     * The request was stopped by {@code e}, which {@code run} throws as itself: the listener still hears the request's
     * end, as a failure with {@code e} as its cause.
     */
    private void stoppedBy(Throwable e) {
        RequestResult partial = counters.resultSoFar();
        LOG.error("request {} stopped by {}: {}", id, e.toString(), summary(partial, counters));
        listener.onRequestFailed(partial, asRequestFailure(e).withPartialResult(partial));
    }

    private RequestFailedException asRequestFailure(Throwable failure) {
        if (failure instanceof RequestFailedException e) {
            return e;
        }
        return new RequestFailedException("request " + id + " failed: " + failure, failure);
    }

    private static String summary(RequestResult r, RequestCounters counters) {
        long stored = counters.foundInStore();
        return r.segmentsDelivered() + " segment(s) delivered" + (stored > 0 ? " (" + stored + " found in the store)"
                : "") + " in " + r.elapsed().toMillis() + " ms ("
                + r.firstSegment().map(first -> "first after " + first.toMillis() + " ms").orElse("none delivered")
                + "), " + r.dials() + " dial(s), " + r.admissions()
                + " admission(s), " + r.refusals() + " refusal(s), " + r.failures() + " failure(s), "
                + r.executionTimeouts() + " execution timeout(s), " + r.reruns() + " re-run(s)";
    }
}
