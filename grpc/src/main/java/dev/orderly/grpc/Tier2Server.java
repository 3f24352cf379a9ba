package dev.orderly.grpc;

import dev.orderly.api.Job;
import dev.orderly.api.JobKey;
import dev.orderly.grpc.proto.Admitted;
import dev.orderly.grpc.proto.ProcessRangeRequest;
import dev.orderly.grpc.proto.ProcessRangeResponse;
import io.grpc.Server;
import io.grpc.ServerBuilder;
import io.grpc.ServerServiceDefinition;
import io.grpc.Status;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.protobuf.services.HealthStatusManager;
import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.ServerCalls;
import io.grpc.stub.StreamObserver;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A real tier2: serves {@code orderly.tier2.v1.Tier2/ProcessRange} and the standard {@code grpc.health.v1} service.
 *
 * <p>At its limit of {@code maxConcurrentJobs} it refuses a call at once with {@code RESOURCE_EXHAUSTED}
 * "{@value Tier2Protocol#OVERLOADED}" and runs nothing; there is no queue on the server, the tier1's launch queue is
 * the queue. Otherwise it sends {@code Admitted} and runs the job ({@link ServerJob}); each admitted job gives its slot
 * back exactly once, whether it completed, failed, was cancelled by the client, or the client went away. While it is
 * full or draining it reports NOT_SERVING, so health-checking clients send their calls elsewhere.
 *
 * <p>{@link #close()} drains: it stops admitting (new calls get {@code UNAVAILABLE}), lets running jobs finish within
 * the grace period, then stops the rest (their clients see {@code UNAVAILABLE} after {@code Admitted}: RETRYABLE).
 *
 * <p>This class is thread-safe.
 */
public final class Tier2Server implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(Tier2Server.class);

    private final JobWorker worker;
    private final JobOutputs outputs;
    private final int maxConcurrentJobs;
    private final Duration executionTimeout;
    private final Duration drainGrace;
    private final String instanceName;
    private final HealthStatusManager health = new HealthStatusManager();
    private final AdmissionLimit slots;
    private final Set<ServerJob> running = ConcurrentHashMap.newKeySet();
    private final ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor();
    private final ScheduledExecutorService timer =
            Executors.newSingleThreadScheduledExecutor(Thread.ofVirtual().name("tier2-execution-limit").factory());
    private final AtomicBoolean closed = new AtomicBoolean();
    private final CountDownLatch terminated = new CountDownLatch(1);
    private final Server server;

    private Tier2Server(Builder b) {
        this.worker = b.worker;
        this.outputs = b.outputs;
        this.maxConcurrentJobs = b.maxConcurrentJobs;
        this.executionTimeout = b.executionTimeout;
        this.drainGrace = b.drainGrace;
        this.instanceName = b.instanceName;
        this.slots = new AdmissionLimit(b.maxConcurrentJobs, health);
        ServerBuilder<?> sb = b.serverBuilder != null ? b.serverBuilder
                : NettyServerBuilder.forAddress(new InetSocketAddress(b.host, b.port));
        this.server = sb.executor(executor)
                .addService(service())
                .addService(health.getHealthService())
                .build();
    }

    /** A builder; {@link Builder#worker} is required. */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * Binds and starts serving.
     *
     * @return this server
     * @throws IOException if it can not bind
     */
    public Tier2Server start() throws IOException {
        server.start();
        LOG.info("tier2 serving on port {} with {} slots", server.getPort(), maxConcurrentJobs);
        return this;
    }

    /** The bound port (after {@link #start()}); -1 for a server that has none, such as an in-process one. */
    public int port() {
        return server.getPort();
    }

    /** The slots held now: jobs admitted whose thread has not ended. */
    public int jobsHeld() {
        return slots.held();
    }

    /** Jobs admitted so far. */
    public long jobsAdmitted() {
        return slots.counts()[0];
    }

    /** Calls refused so far (full or draining). */
    public long callsRefused() {
        return slots.counts()[1];
    }

    /**
     * Drains and stops: no new job is admitted, running jobs get the grace period to finish, then the rest are stopped
     * and the server shuts down. Idempotent; waits for all of it. Restores the interrupt flag if interrupted, after
     * stopping everything at once.
     */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        slots.drain();
        boolean interrupted = false;
        try {
            if (!slots.awaitIdle(drainGrace)) {
                LOG.info("tier2 drain: {} jobs still running after {}, stopping them", slots.held(),
                        drainGrace);
            }
        } catch (InterruptedException e) {
            interrupted = true;
        }
        running.forEach(j -> j.cancel(ServerJob.Why.SERVER_STOPPING));
        try {
            slots.awaitIdle(Duration.ofSeconds(5));
        } catch (InterruptedException e) {
            interrupted = true;
        }
        health.enterTerminalState();
        server.shutdown();
        try {
            if (!server.awaitTermination(2, TimeUnit.SECONDS)) {
                server.shutdownNow();
                server.awaitTermination(2, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            server.shutdownNow();
            interrupted = true;
        }
        timer.shutdownNow();
        executor.shutdownNow();
        terminated.countDown();
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Waits until this server has drained and stopped: until a {@link #close()}, from any thread (a shutdown hook on
     * SIGTERM, say), has returned. What a {@code main} calls to stay up while the server serves.
     *
     * @throws InterruptedException if interrupted while waiting (the server keeps running)
     */
    public void awaitTermination() throws InterruptedException {
        terminated.await();
    }

    /**
     * Waits at most {@code timeout} for this server to drain and stop, as {@link #awaitTermination()}.
     *
     * @return true if it has stopped, false if the time ran out first
     * @throws InterruptedException if interrupted while waiting (the server keeps running)
     */
    public boolean awaitTermination(Duration timeout) throws InterruptedException {
        return terminated.await(timeout.toNanos(), TimeUnit.NANOSECONDS);
    }

    /** As {@link #awaitTermination(Duration)}, in the units of {@link java.util.concurrent.ExecutorService}'s. */
    public boolean awaitTermination(long timeout, TimeUnit unit) throws InterruptedException {
        return terminated.await(timeout, unit);
    }

    /** True once {@link #close()} has finished: drained and stopped. */
    public boolean isTerminated() {
        return terminated.getCount() == 0;
    }

    private ServerServiceDefinition service() {
        return ServerServiceDefinition.builder(Tier2Protocol.SERVICE_NAME)
                .addMethod(Tier2Protocol.PROCESS_RANGE, ServerCalls.asyncServerStreamingCall(this::processRange))
                .build();
    }

    private void processRange(ProcessRangeRequest request, StreamObserver<ProcessRangeResponse> observer) {
        ServerCallStreamObserver<ProcessRangeResponse> responses =
                (ServerCallStreamObserver<ProcessRangeResponse>) observer;
        Job job;
        try {
            job = new Job(request.getRequestId(), new JobKey(request.getSegment(), request.getStage()),
                    request.getAttempt());
        } catch (IllegalArgumentException | NullPointerException e) {
            responses.onError(Status.INVALID_ARGUMENT.withDescription(e.getMessage()).asRuntimeException());
            return;
        }
        switch (slots.tryAcquire()) {
            case FULL -> {
                responses.onError(Status.RESOURCE_EXHAUSTED.withDescription(Tier2Protocol.OVERLOADED)
                        .asRuntimeException());
                return;
            }
            case DRAINING -> {
                responses.onError(Status.UNAVAILABLE.withDescription("tier2 draining").asRuntimeException());
                return;
            }
            case ADMITTED -> {
                // fall through to run it
            }
        }
        ServerJob serverJob = new ServerJob(job, request.getWork().toByteArray(), worker, outputs, responses, slots,
                running::remove);
        running.add(serverJob);
        responses.setOnCancelHandler(() -> serverJob.cancel(ServerJob.Why.CLIENT_CANCELLED));
        responses.onNext(ProcessRangeResponse.newBuilder()
                .setAdmitted(Admitted.newBuilder().setInstance(instanceName)).build());
        serverJob.start(timer, executionTimeout);
    }

    /** Builds a {@link Tier2Server}. Not thread-safe. */
    public static final class Builder {
        private String host = "127.0.0.1";
        private int port;
        private int maxConcurrentJobs = 4;
        private JobWorker worker;
        private JobOutputs outputs;
        private Duration executionTimeout;
        private Duration drainGrace = Duration.ofSeconds(10);
        private String instanceName = "tier2";
        private ServerBuilder<?> serverBuilder;

        private Builder() {
        }

        /** The address to listen on; default {@code 127.0.0.1} (use {@code 0.0.0.0} for every interface). */
        public Builder host(String host) {
            this.host = Objects.requireNonNull(host, "host");
            return this;
        }

        /** The port; 0 (the default) picks a free one, see {@link Tier2Server#port()}. */
        public Builder port(int port) {
            if (port < 0 || port > 65_535) {
                throw new IllegalArgumentException("port must be between 0 and 65535, was " + port);
            }
            this.port = port;
            return this;
        }

        /** Jobs run at once before the server refuses; default 4. */
        public Builder maxConcurrentJobs(int max) {
            if (max < 1) {
                throw new IllegalArgumentException("maxConcurrentJobs must be >= 1, was " + max);
            }
            this.maxConcurrentJobs = max;
            return this;
        }

        /** What the server does for one job. Required. */
        public Builder worker(JobWorker worker) {
            this.worker = Objects.requireNonNull(worker, "worker");
            return this;
        }

        /**
         * Where {@link JobContext#writeOutput} writes the jobs' outputs. Optional: without it a worker writes its
         * output itself, and {@code writeOutput} throws {@link IllegalStateException}.
         */
        public Builder outputs(JobOutputs outputs) {
            this.outputs = Objects.requireNonNull(outputs, "outputs");
            return this;
        }

        /** The longest one job may run; past it the call ends with {@code DEADLINE_EXCEEDED}. Default: no limit. */
        public Builder executionTimeout(Duration timeout) {
            Objects.requireNonNull(timeout, "executionTimeout");
            if (!timeout.isPositive()) {
                throw new IllegalArgumentException("executionTimeout must be > 0, was " + timeout);
            }
            this.executionTimeout = timeout;
            return this;
        }

        /** How long {@link Tier2Server#close()} lets running jobs finish before it stops them; default 10 s. */
        public Builder drainGrace(Duration grace) {
            Objects.requireNonNull(grace, "drainGrace");
            if (grace.isNegative()) {
                throw new IllegalArgumentException("drainGrace must be >= 0, was " + grace);
            }
            this.drainGrace = grace;
            return this;
        }

        /** The name sent in {@code Admitted}, for the client's logs; default {@code tier2}. */
        public Builder instanceName(String name) {
            this.instanceName = Objects.requireNonNull(name, "instanceName");
            return this;
        }

        /**
         * Serve on this transport instead of Netty on host:port (for example an {@code InProcessServerBuilder} in
         * tests, or a Netty builder with TLS). Host and port are then ignored.
         */
        public Builder serverBuilder(ServerBuilder<?> builder) {
            this.serverBuilder = Objects.requireNonNull(builder, "serverBuilder");
            return this;
        }

        /** @throws IllegalStateException if no worker was given */
        public Tier2Server build() {
            if (worker == null) {
                throw new IllegalStateException("a Tier2Server needs a worker");
            }
            return new Tier2Server(this);
        }
    }
}
