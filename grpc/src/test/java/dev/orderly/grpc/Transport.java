package dev.orderly.grpc;

import dev.orderly.api.Job;
import dev.orderly.api.JobKey;
import dev.orderly.api.Tier2Call;
import dev.orderly.api.Tier2Client;
import dev.orderly.api.Tier2Exception;
import dev.orderly.engine.InMemoryOutputStore;
import io.grpc.ManagedChannel;
import io.grpc.inprocess.InProcessChannelBuilder;
import io.grpc.inprocess.InProcessServerBuilder;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A tier2 fleet of {@code slots} slots that runs a scripted {@link JobWorker}, reached either in memory (a plain
 * {@link Tier2Client}) or over gRPC (a {@link Tier2Server} in-process and a {@link GrpcTier2Client}). The engine's
 * guarantees must hold the same over both. Last-stage jobs that end normally write {@link #output} for their segment.
 */
abstract class Transport implements AutoCloseable {

    enum Kind { IN_MEMORY, GRPC }

    final InMemoryOutputStore outputs = new InMemoryOutputStore();
    final Map<JobKey, AtomicInteger> admissions = new ConcurrentHashMap<>();

    static byte[] output(long segment) {
        return ("out-" + segment).getBytes(StandardCharsets.UTF_8);
    }

    static Transport open(Kind kind, int slots, int stages, JobWorker script) throws IOException {
        return kind == Kind.IN_MEMORY ? new InMemory(slots, stages, script) : new Grpc(slots, stages, script);
    }

    abstract Tier2Client client();

    /** Calls admitted and not yet given back. */
    abstract int openCalls();

    /** How many times {@code key} was admitted. */
    int admissionsOf(JobKey key) {
        AtomicInteger n = admissions.get(key);
        return n == null ? 0 : n.get();
    }

    /** The script, then the output: what the worker does on either transport. */
    JobWorker worker(int stages, JobWorker script) {
        return (job, work) -> {
            admissions.computeIfAbsent(job.key(), k -> new AtomicInteger()).incrementAndGet();
            script.run(job, work);
            if (job.key().stage() == stages - 1) {
                outputs.write(job.key().segment(), output(job.key().segment()));
            }
        };
    }

    @Override
    public void close() throws Exception {
        // the in-memory fleet holds nothing
    }

    @Override
    public String toString() {
        return getClass().getSimpleName();
    }

    /** No network: dial takes a slot or refuses, await runs the worker on the job's own thread. */
    static final class InMemory extends Transport {
        private final int slots;
        private final JobWorker worker;
        private final ReentrantLock lock = new ReentrantLock();
        private int held; // guarded by lock

        InMemory(int slots, int stages, JobWorker script) {
            this.slots = slots;
            this.worker = worker(stages, script);
        }

        @Override
        Tier2Client client() {
            return this::dial;
        }

        private Tier2Call dial(Job job) throws Tier2Exception {
            lock.lock();
            try {
                if (held >= slots) {
                    throw Tier2Exception.refused("service currently overloaded");
                }
                held++;
            } finally {
                lock.unlock();
            }
            AtomicBoolean released = new AtomicBoolean();
            Runnable release = () -> {
                if (released.compareAndSet(false, true)) {
                    lock.lock();
                    try {
                        held--;
                    } finally {
                        lock.unlock();
                    }
                }
            };
            return new Tier2Call() {
                @Override
                public void await() throws Tier2Exception, InterruptedException {
                    try {
                        worker.run(job, new byte[0]);
                    } catch (Tier2Exception | InterruptedException e) {
                        throw e;
                    } catch (Exception e) {
                        throw Tier2Exception.retryable(e.toString(), e);
                    } finally {
                        release.run();
                    }
                }

                @Override
                public void close() {
                    release.run();
                }
            };
        }

        @Override
        int openCalls() {
            lock.lock();
            try {
                return held;
            } finally {
                lock.unlock();
            }
        }
    }

    /** Over gRPC, in-process: the real client, the real server. */
    static final class Grpc extends Transport {
        private final Tier2Server server;
        private final ManagedChannel channel;
        private final GrpcTier2Client client;

        Grpc(int slots, int stages, JobWorker script) throws IOException {
            String name = InProcessServerBuilder.generateName();
            server = Tier2Server.builder().maxConcurrentJobs(slots).worker(worker(stages, script))
                    .serverBuilder(InProcessServerBuilder.forName(name)).build().start();
            channel = InProcessChannelBuilder.forName(name).build();
            client = GrpcTier2Client.builder().channel(channel).build();
        }

        @Override
        Tier2Client client() {
            return client;
        }

        @Override
        int openCalls() {
            return server.jobsHeld();
        }

        @Override
        public void close() throws InterruptedException {
            channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
            server.close();
        }
    }
}
