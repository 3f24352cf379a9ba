package dev.orderly.grpc;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orderly.api.Job;
import dev.orderly.api.JobKey;
import dev.orderly.grpc.proto.ProcessRangeResponse;
import io.grpc.protobuf.services.HealthStatusManager;
import io.grpc.stub.ServerCallStreamObserver;
import java.lang.reflect.Field;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.ReentrantLock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A waiter handed a freed slot whose client goes away a moment later, after the hand-over saw it there but before its
 * job's thread started the worker: the job is stopped before it runs anything (no {@code Admitted} is sent, the worker
 * never runs), so it is no admission. {@link Tier2Server#jobsAdmitted()} says "each started; a waiter whose client
 * went away as it was handed a slot is not one".
 *
 * <p>The moment is made exact: the test holds the server's running-jobs lock, so the hand-over stops on it right after
 * it recorded the job as started; the client goes away then, and the lock is let go.
 */
@Timeout(30)
class AWaiterWhoseClientWentAsItsJobWasStartingIsNotAdmittedTest {

    /** The call of one dial: keeps its cancel handler, and what was sent on it. */
    private static final class Call extends ServerCallStreamObserver<ProcessRangeResponse> {
        final AtomicReference<Runnable> onCancel = new AtomicReference<>();
        final List<Object> sent = new CopyOnWriteArrayList<>();

        @Override public boolean isCancelled() { return false; }
        @Override public void setOnCancelHandler(Runnable handler) { onCancel.set(handler); }
        @Override public void setCompression(String compression) { }
        @Override public boolean isReady() { return true; }
        @Override public void setOnReadyHandler(Runnable handler) { }
        @Override public void disableAutoInboundFlowControl() { }
        @Override public void request(int count) { }
        @Override public void setMessageCompression(boolean enable) { }
        @Override public void onNext(ProcessRangeResponse value) { sent.add(value); }
        @Override public void onError(Throwable t) { sent.add(t); }
        @Override public void onCompleted() { sent.add("completed"); }
    }

    @Test
    void aWaiterWhoseClientWentBeforeItsJobRanIsNotCounted() throws Exception {
        ScheduledThreadPoolExecutor timer = new ScheduledThreadPoolExecutor(1);
        List<String> ran = new CopyOnWriteArrayList<>();
        CountDownLatch finishHolder = new CountDownLatch(1);
        JobWorker worker = (job, work) -> {
            ran.add(job.requestId());
            if (job.requestId().equals("h")) {
                finishHolder.await(20, TimeUnit.SECONDS);
            }
        };
        RunningJobs running = new RunningJobs();
        Field f = RunningJobs.class.getDeclaredField("lock");
        f.setAccessible(true);
        ReentrantLock runningLock = (ReentrantLock) f.get(running);
        ServerDial.Runner runner = new ServerDial.Runner(worker, null, running, timer, null, "tier2-test",
                Tier2Server.DEFAULT_MAX_MESSAGE_SIZE);
        boolean locked = false;
        try {
            AdmissionLimit limit = new AdmissionLimit(1, 4, Duration.ofSeconds(30), new HealthStatusManager(),
                    Duration.ZERO, timer);
            Call holder = new Call();
            new ServerDial(new Job("h", new JobKey(0, 0), 1, 0), new byte[0], holder, limit, runner)
                    .arrive("h", 0, 30_000);
            await().atMost(10, SECONDS).until(() -> ran.equals(List.of("h")));
            Call gone = new Call();
            new ServerDial(new Job("a", new JobKey(1, 0), 1, 1), new byte[0], gone, limit, runner)
                    .arrive("a", 0, 30_000);
            assertEquals(1, limit.waiting());

            runningLock.lock();
            locked = true;
            finishHolder.countDown();
            // the hand-over reached the running jobs: the job is recorded as started, not yet added or begun
            await().atMost(10, SECONDS).until(runningLock::hasQueuedThreads);
            gone.onCancel.get().run(); // the waiter's client goes away now
            runningLock.unlock();
            locked = false;

            await().atMost(10, SECONDS).until(() -> limit.held() == 0);
            assertEquals(List.of("h"), ran, "the gone client's job never ran its worker");
            assertTrue(gone.sent.isEmpty(), "the gone client's call was sent " + gone.sent);
            assertEquals(1, limit.counts()[0], "jobs admitted: only the holder's job ran; the waiter whose client"
                    + " went before its job started ran nothing");
        } finally {
            if (locked) {
                runningLock.unlock();
            }
            finishHolder.countDown();
            timer.shutdownNow();
        }
    }
}
