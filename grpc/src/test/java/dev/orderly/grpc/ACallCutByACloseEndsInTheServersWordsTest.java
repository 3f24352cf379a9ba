package dev.orderly.grpc;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orderly.api.Job;
import dev.orderly.api.JobKey;
import dev.orderly.api.Tier2Call;
import dev.orderly.api.Tier2Exception;
import dev.orderly.api.Tier2Exception.Kind;
import io.grpc.ForwardingServerBuilder;
import io.grpc.ManagedChannel;
import io.grpc.ServerBuilder;
import io.grpc.inprocess.InProcessChannelBuilder;
import io.grpc.inprocess.InProcessServerBuilder;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.FutureTask;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.ReentrantLock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A job stopped by {@link Tier2Server#close()} ends, at its client, in the server's own words: UNAVAILABLE "tier2
 * stopped before job …", RETRYABLE after {@code Admitted}, even when the client's thread is still handing the server
 * a callback of that call as the close runs.
 *
 * <p>The bug: {@code close()} shut down the executor it gave gRPC, but gRPC may still hand that executor a call's
 * callbacks after the server has terminated. The in-process transport runs a server callback on whichever thread
 * holds the call's queue, here the client's, which asked for the message after {@code Admitted}; the shut down
 * executor refused it ({@code RejectedExecutionException}), which was thrown into the client's thread, and the call
 * ended CANCELLED "Failed to read message." rather than the server's UNAVAILABLE (seen once in some 3,000 closes of
 * {@link AJobAdmittedAsTheServerClosesIsStoppedWithTheOthersTest}). Here the client's thread is held, at that
 * hand-over, until {@code close()} has returned: the order a preempted thread gives by chance, every time.
 */
@Timeout(60)
class ACallCutByACloseEndsInTheServersWordsTest {

    private static final String CLIENT_THREAD = "test-client-";
    private static final ThreadFactory CLIENT_THREADS = Thread.ofVirtual().name(CLIENT_THREAD, 0).factory();

    /** The client's executor: holds every callback until {@link #release()}, then runs each on a thread of its own. */
    private static final class HeldExecutor implements Executor {
        private final ReentrantLock lock = new ReentrantLock();
        // guarded by lock
        private final List<Runnable> held = new ArrayList<>();
        // guarded by lock
        private boolean released;

        @Override
        public void execute(Runnable task) {
            lock.lock();
            try {
                if (!released) {
                    held.add(task);
                    return;
                }
            } finally {
                lock.unlock();
            }
            CLIENT_THREADS.newThread(task).start();
        }

        void release() {
            List<Runnable> now;
            lock.lock();
            try {
                released = true;
                now = List.copyOf(held);
                held.clear();
            } finally {
                lock.unlock();
            }
            now.forEach(t -> CLIENT_THREADS.newThread(t).start());
        }
    }

    /**
     * The in-process server, its executor (the one {@link Tier2Server} gives it) wrapped: once armed, the first
     * callback a client's thread hands it waits for {@link #resume} before it is passed on.
     */
    private static final class HeldHandOver extends ForwardingServerBuilder<HeldHandOver> {
        private final InProcessServerBuilder delegate;
        final AtomicBoolean armed = new AtomicBoolean();
        final AtomicInteger running = new AtomicInteger();
        final CountDownLatch paused = new CountDownLatch(1);
        final CountDownLatch resume = new CountDownLatch(1);

        HeldHandOver(String name) {
            this.delegate = InProcessServerBuilder.forName(name);
        }

        @Override
        protected ServerBuilder<?> delegate() {
            return delegate;
        }

        @Override
        public HeldHandOver executor(Executor executor) {
            delegate.executor(task -> {
                // gRPC runs a call's callbacks one after the other: handed over while one runs, a callback is
                // queued behind it and never reaches this executor, so the test waits until none runs
                running.incrementAndGet();
                Runnable counted = () -> {
                    try {
                        task.run();
                    } finally {
                        running.decrementAndGet();
                    }
                };
                if (Thread.currentThread().getName().startsWith(CLIENT_THREAD) && armed.compareAndSet(true, false)) {
                    paused.countDown();
                    try {
                        assertTrue(resume.await(20, SECONDS), "not resumed");
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }
                try {
                    executor.execute(counted);
                } catch (RuntimeException refused) {
                    running.decrementAndGet();
                    throw refused;
                }
            });
            return this;
        }
    }

    @Test
    void aClientThreadStillHandingOverACallbackAsTheServerClosesHearsTheServersStatus() throws Exception {
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch never = new CountDownLatch(1);
        JobWorker untilStopped = (job, work) -> {
            started.countDown(); // Admitted has been sent
            never.await(); // an interrupt (the stop) ends it
        };
        String name = InProcessServerBuilder.generateName();
        HeldHandOver transport = new HeldHandOver(name);
        Tier2Server server = Tier2Server.builder().worker(untilStopped).drainGrace(Duration.ZERO)
                .serverBuilder(transport).build().start();
        HeldExecutor clientThreads = new HeldExecutor();
        ManagedChannel channel = InProcessChannelBuilder.forName(name).executor(clientThreads).build();
        GrpcTier2Client client = GrpcTier2Client.builder().channel(channel).build();
        FutureTask<Tier2Call> dial = new FutureTask<>(() -> client.dial(new Job("r", new JobKey(0, 0), 1)));
        Thread dialer = Thread.ofVirtual().start(dial);
        Tier2Call call = null;
        try {
            assertTrue(started.await(10, SECONDS), "the job did not start");
            await().atMost(Duration.ofSeconds(10)).until(() -> transport.running.get() == 0);
            transport.armed.set(true);
            // the client reads Admitted and asks for the next message: the server's call is ready again, a
            // callback the client's thread hands to the server's executor, and is held at
            clientThreads.release();
            assertTrue(transport.paused.await(10, SECONDS), "the client's thread handed the server nothing");
            server.close();
            transport.resume.countDown();
            call = dial.get(10, SECONDS);
            Tier2Exception e = assertThrows(Tier2Exception.class, call::await);
            assertEquals(Kind.RETRYABLE, e.kind(), e.getMessage());
            assertTrue(e.getMessage().contains("UNAVAILABLE tier2 stopped before job"), e.getMessage());
            assertEquals(0, server.jobsHeld());
        } finally {
            never.countDown();
            transport.resume.countDown();
            clientThreads.release();
            dialer.interrupt();
            if (call != null) {
                call.close();
            }
            server.close();
            client.close();
            channel.shutdownNow().awaitTermination(5, SECONDS);
        }
    }
}
