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
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A waiter handed a freed slot in the very moment its client goes away (gRPC's cancel handler runs after the room
 * admitted it, before it was told) gives the slot straight back and runs nothing: it must not count in
 * {@link Tier2Server#jobsAdmitted()} ("jobs admitted so far"), and the slot must go on to the next waiter.
 *
 * <p>The moment is made exact, on one thread: the hand-over stops the waiter's wait timer under the admission lock,
 * and this test's timer runs the waiter's cancel handler from that cancel.
 */
@Timeout(30)
class AWaiterWhoseClientWentAsItWasHandedASlotIsNotAdmittedTest {

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

    /** A timer whose wait-end futures run {@link #onCancel} when they are cancelled (a waiter leaving WAITING). */
    private static final class HookedTimer extends ScheduledThreadPoolExecutor {
        volatile Runnable onCancel = () -> { };

        HookedTimer() {
            super(1);
        }

        @Override
        public ScheduledFuture<?> schedule(Runnable command, long delay, TimeUnit unit) {
            ScheduledFuture<?> real = super.schedule(command, delay, unit);
            return new ScheduledFuture<Object>() {
                @Override public long getDelay(TimeUnit u) { return real.getDelay(u); }
                @Override public int compareTo(java.util.concurrent.Delayed o) { return real.compareTo(o); }
                @Override public boolean isCancelled() { return real.isCancelled(); }
                @Override public boolean isDone() { return real.isDone(); }
                @Override public Object get() throws InterruptedException, ExecutionException {
                    return real.get();
                }
                @Override public Object get(long t, TimeUnit u)
                        throws InterruptedException, ExecutionException, TimeoutException {
                    return real.get(t, u);
                }

                @Override
                public boolean cancel(boolean mayInterrupt) {
                    Runnable hook = onCancel;
                    onCancel = () -> { };
                    hook.run();
                    return real.cancel(mayInterrupt);
                }
            };
        }
    }

    @Test
    void aWaiterWhoseClientWentAsItWasHandedASlotIsNotCountedAndTheSlotGoesOn() throws Exception {
        HookedTimer timer = new HookedTimer();
        List<String> ran = new CopyOnWriteArrayList<>();
        CountDownLatch finishHolder = new CountDownLatch(1);
        CountDownLatch finishNext = new CountDownLatch(1);
        JobWorker worker = (job, work) -> {
            ran.add(job.requestId());
            (job.requestId().equals("h") ? finishHolder : finishNext).await(20, TimeUnit.SECONDS);
        };
        ServerDial.Runner runner = new ServerDial.Runner(worker, null, new RunningJobs(), timer, null,
                "tier2-test", Tier2Server.DEFAULT_MAX_MESSAGE_SIZE);
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
            Call next = new Call();
            new ServerDial(new Job("b", new JobKey(5, 0), 1, 0), new byte[0], next, limit, runner)
                    .arrive("b", 5, 30_000);
            assertEquals(2, limit.waiting());

            // the first waiter's client goes away just as the holder's slot is handed to it
            timer.onCancel = () -> gone.onCancel.get().run();
            finishHolder.countDown();

            await().atMost(10, SECONDS).until(() -> ran.equals(List.of("h", "b")));
            assertTrue(gone.sent.isEmpty(), "the gone client's call was sent " + gone.sent);
            assertEquals(0, limit.waiting());
            assertEquals(1, limit.held());
            assertEquals(2, limit.counts()[0], "jobs admitted: the holder's and the next waiter's ran; the waiter "
                    + "whose client went as it was handed the slot ran nothing");
            finishNext.countDown();
            await().atMost(10, SECONDS).until(() -> limit.held() == 0);
            assertEquals(2, limit.counts()[0], "jobs admitted");
        } finally {
            finishHolder.countDown();
            finishNext.countDown();
            timer.shutdownNow();
        }
    }
}
