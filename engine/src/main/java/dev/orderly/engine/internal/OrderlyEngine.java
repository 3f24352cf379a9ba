package dev.orderly.engine.internal;

import dev.orderly.api.Engine;
import dev.orderly.api.EngineConfig;
import dev.orderly.api.JobKey;
import dev.orderly.api.Request;
import dev.orderly.api.RequestFailedException;
import dev.orderly.api.RequestListener;
import dev.orderly.api.RequestPlan;
import dev.orderly.api.RequestResult;
import dev.orderly.engine.DialGate;
import dev.orderly.engine.LaunchQueue;
import dev.orderly.engine.internal.jfr.JfrListener;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@link Engine}: wires, for each request, a scheduler, a dial gate (the launch queue, or the unordered
 * baseline's per-job delay), a job runner, an output walker and a request scope, runs it, and logs one summary line.
 *
 * <p>Immutable and thread-safe: each request gets its own parts, so many requests run at once on one engine.
 */
public final class OrderlyEngine implements Engine {

    private static final Logger LOG = LoggerFactory.getLogger(OrderlyEngine.class);

    private final EngineConfig config;
    private final Consumer<Thread> threadObserver;
    private final RequestScope.Factory scopes;

    /** An engine with {@code config}. */
    public OrderlyEngine(EngineConfig config) {
        this(config, thread -> { });
    }

    /**
     * An engine that also tells {@code threadObserver} of every thread it creates for a request, before the thread
     * starts. A test hook: it lets a test check that no request thread outlives its request.
     *
     * @throws IllegalArgumentException if the system property {@code orderly.scope} has an unknown value
     * @throws IllegalStateException if it forces a request scope this JVM can not load (see {@link RequestScopes})
     */
    public OrderlyEngine(EngineConfig config, Consumer<Thread> threadObserver) {
        this.config = Objects.requireNonNull(config, "config");
        this.threadObserver = Objects.requireNonNull(threadObserver, "threadObserver");
        this.scopes = RequestScopes.chosen().factory();
    }

    @Override
    public RequestResult run(Request request) throws RequestFailedException, InterruptedException {
        Objects.requireNonNull(request, "request");
        if (Thread.interrupted()) {
            // Checked before anything is forked, so a cancelled caller costs the fleet not a single dial.
            throw new InterruptedException("request " + request.id() + " not started: the caller was interrupted");
        }
        RequestPlan plan = request.plan();
        String id = request.id();
        RequestCounters counters = new RequestCounters();
        Deadline deadline = Deadline.after(request.deadline());
        SafeListener safe = new SafeListener(request.listener());
        // JFR events are derived from the listener events, so the launch queue's paths carry no JFR code.
        RequestListener listener = new JfrListener(id, safe);
        long lookahead = Scheduler.lookahead(config.lookaheadFactor(), plan.workers());
        Scheduler scheduler = new Scheduler(plan, lookahead, request.resume());
        DialGate gate = config.ordered()
                ? new LaunchQueue(plan.workers(), config, listener::onQueued)
                : new DelayGate(config);
        RunningJobs running = new RunningJobs();
        StallWatch stall = new StallWatch(id, config.stallWarning());
        // A job asks before every dial: past the deadline the request is as good as stopped, even while the walker
        // still waits for a busy client to return and notice.
        JobRunner runner = new JobRunner(id, request.tier2(), gate, config, counters, listener,
                key -> deadline.remainingNanos() > 0 && scheduler.isNeeded(key), stall, scheduler::reading);
        OutputWalker walker = new OutputWalker(id, plan, request.outputs(), request.client(), scheduler, counters,
                listener, deadline, request.resume(), running::withdrawHighestWaiting, stall::last);
        RequestScope scope = scopes.open(id, scheduler, threadObserver);
        LOG.debug("request {} starts: segments [{}, {}), {} stage(s), {} worker(s), look-ahead {}, {}", id,
                plan.startSegment(), plan.endSegment(), plan.stages(), plan.workers(), lookahead, gate);

        try {
            return runScoped(request, scope, walker, runner, scheduler, running, counters, listener);
        } finally {
            safe.logFailuresAfterTheFirst(id);
        }
    }

    private RequestResult runScoped(Request request, RequestScope scope, OutputWalker walker, JobRunner runner,
            Scheduler scheduler, RunningJobs running, RequestCounters counters, RequestListener listener)
            throws RequestFailedException, InterruptedException {
        String id = request.id();
        RequestPlan plan = request.plan();
        Optional<Throwable> failure;
        try {
            failure = scope.run(() -> {
                walker.run();
                return null;
            }, key -> job(key, runner, scheduler, running));
        } catch (InterruptedException e) {
            RequestResult partial = counters.resultSoFar();
            LOG.info("request {} cancelled by interrupt: {}", id, summary(partial, counters));
            // run's signature allows only InterruptedException here; the figures so far ride along as suppressed.
            e.addSuppressed(new RequestFailedException("request " + id + " cancelled by interrupt after "
                    + partial.segmentsDelivered() + " of " + plan.segmentCount() + " segments delivered", null)
                    .withPartialResult(partial));
            listener.onRequestCancelled(partial);
            throw e;
        }
        if (failure.isPresent() && failure.get() instanceof VirtualMachineError e) {
            // Every thread of the request has ended (the scope cancelled them); the VM's own error goes up unchanged.
            LOG.error("request {} stopped by {}", id, e.toString());
            throw e;
        }
        if (failure.isPresent()) {
            // One snapshot, taken once: the listener and the caller get equal figures.
            RequestResult partial = counters.resultSoFar();
            RequestFailedException failed = asRequestFailure(id, failure.get()).withPartialResult(partial);
            LOG.info("request {} failed: {}; {}", id, failed.getMessage(), summary(partial, counters));
            listener.onRequestFailed(partial, failed);
            throw failed;
        }
        RequestResult result = counters.result();
        LOG.info("request {} done: {}", id, summary(result, counters));
        listener.onRequestDone(result);
        return result;
    }

    private static Callable<Void> job(Launch launch, JobRunner runner, Scheduler scheduler, RunningJobs running) {
        return () -> {
            JobKey key = launch.key();
            UnitCounts.Tally tally = new UnitCounts.Tally(launch.prior());
            JobRunner.Outcome outcome = null;
            RunningJobs.Handle handle = running.start(key);
            try {
                outcome = runner.run(key, tally, handle);
            } catch (VirtualMachineError e) {
                // Nothing can be trusted after it: it propagates as itself, once the scope has cancelled the rest.
                throw e;
            } catch (Error e) {
                // An Error from the tier2 client or the store is still this unit's failure: keep the unit.
                throw new RequestFailedException(key, key + " failed with " + e + " on attempt " + tally.dials
                        + ", giving up", e);
            } finally {
                running.end(handle);
                if (outcome == null) {
                    // This job fails the request (or it was cancelled): the worker it frees must not go to another
                    // unit in the moment before the scope learns of the failure and cancels the request.
                    scheduler.jobFailed();
                } else if (outcome == JobRunner.Outcome.WITHDRAWN) {
                    scheduler.jobWithdrawn(key);
                } else {
                    scheduler.jobEnded(key, outcome == JobRunner.Outcome.DONE, tally.counts());
                }
            }
            if (outcome == JobRunner.Outcome.DONE) {
                // The board now has the stages under this one DONE: their jobs, if any, are cancelled.
                running.cancelCoveredBy(launch.key());
            }
            return null;
        };
    }

    private static RequestFailedException asRequestFailure(String id, Throwable failure) {
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
