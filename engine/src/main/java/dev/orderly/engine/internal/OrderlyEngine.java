package dev.orderly.engine.internal;

import dev.orderly.api.Engine;
import dev.orderly.api.EngineConfig;
import dev.orderly.api.Request;
import dev.orderly.api.RequestFailedException;
import dev.orderly.api.RequestResult;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * The {@link Engine}: for each request, a {@link RequestRun} that wires its parts (a scheduler, a dial gate, a job
 * runner, an output walker, a request scope) and runs it.
 *
 * <p>Thread-safe: each request gets its own parts, so many requests run at once on one engine. The one thing they
 * share is the engine-wide job cap ({@code EngineConfig.maxConcurrentJobs}), when there is one: an
 * {@link EngineJobCap} that each request's scheduler asks before it hands a job out.
 */
public final class OrderlyEngine implements Engine {

    private final EngineConfig config;
    private final Consumer<Thread> threadObserver;
    private final RequestScope.Factory scopes;
    // null when maxConcurrentJobs is unlimited: then nothing is shared and nothing is counted
    private final EngineJobCap jobCap;

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
        this(config, threadObserver, RequestScopes.chosen().factory());
    }

    /** An engine whose requests open their scopes from {@code scopes} (a test seam: a scope that can not open). */
    OrderlyEngine(EngineConfig config, Consumer<Thread> threadObserver, RequestScope.Factory scopes) {
        this.config = Objects.requireNonNull(config, "config");
        this.threadObserver = Objects.requireNonNull(threadObserver, "threadObserver");
        this.scopes = Objects.requireNonNull(scopes, "scopes");
        this.jobCap = config.maxConcurrentJobs() == EngineConfig.UNLIMITED_JOBS ? null
                : new EngineJobCap(config.maxConcurrentJobs());
    }

    /** The engine-wide job cap, or null when it is unlimited (a diagnostic for tests). */
    EngineJobCap jobCap() {
        return jobCap;
    }

    @Override
    public RequestResult run(Request request) throws RequestFailedException, InterruptedException {
        Objects.requireNonNull(request, "request");
        if (Thread.interrupted()) {
            // Checked before anything is forked, so a cancelled caller costs the fleet not a single dial. The figures
            // ride along as on every cancellation (run's contract): those of a request that did nothing, so a caller
            // that restarts from segmentsDelivered restarts from the plan's start.
            InterruptedException e = new InterruptedException("request " + request.id()
                    + " not started: the caller was interrupted");
            e.addSuppressed(new RequestFailedException("request " + request.id() + " cancelled by interrupt after 0 of "
                    + request.plan().segmentCount() + " segments delivered", null)
                    .withPartialResult(new RequestCounters().resultSoFar()));
            throw e;
        }
        JobPermits permits = jobCap == null ? JobPermits.UNLIMITED : jobCap.join(request.id());
        RequestRun run;
        try {
            run = new RequestRun(request, config, scopes, threadObserver, permits);
        } catch (RuntimeException | Error e) {
            permits.close();
            throw e;
        }
        return run.run();
    }
}
