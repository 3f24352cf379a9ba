package dev.orderly.engine.internal;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Field;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The monitor of the engine-wide job cap with real owner threads: every change that ends an owner's wait in
 * {@code awaitPermit} (a permit handed to it, its wish withdrawn) wakes that owner, and nobody else's change is lost.
 * Each wait is bounded; a lost wake-up shows as an owner still waiting after 10 s.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class EngineJobCapWakeUpTest {

    private static final Duration BOUND = Duration.ofSeconds(10);

    private final List<JobPermits> opened = new ArrayList<>();
    private final List<Thread> owners = new ArrayList<>();

    /** An owner thread waiting in {@code awaitPermit}: its wait's outcome, null if it ended normally. */
    private record Owner(Thread thread, CompletableFuture<Throwable> ended) {
    }

    private JobPermits join(EngineJobCap cap, String requestId) {
        JobPermits permits = cap.join(requestId);
        opened.add(permits);
        return permits;
    }

    /** Starts an owner that waits for a permit, and returns once it is parked in that wait. */
    private Owner awaiting(JobPermits permits, String name) {
        CompletableFuture<Throwable> ended = new CompletableFuture<>();
        Thread thread = Thread.ofPlatform().name(name).start(() -> {
            try {
                permits.awaitPermit();
                ended.complete(null);
            } catch (Throwable t) {
                ended.complete(t);
            }
        });
        owners.add(thread);
        await().atMost(BOUND).until(() -> thread.getState() == Thread.State.WAITING);
        return new Owner(thread, ended);
    }

    @AfterEach
    void closeEveryRequestAndJoinItsOwner() throws InterruptedException {
        // Closing ends every wait: an owner left waiting by a lost wake-up does not outlive its test.
        opened.forEach(JobPermits::close);
        for (Thread owner : owners) {
            assertTrue(owner.join(BOUND), owner + " still waits after every request was closed");
        }
    }

    @Test
    void theDiagnosticsCountAndPrintThePermitsHeld() throws Exception {
        EngineJobCap cap = new EngineJobCap(2);
        assertEquals(2, cap.limit());
        JobPermits a = join(cap, "a");
        assertEquals("engine-wide job cap of 2", a.toString());
        assertEquals("no engine-wide job cap", JobPermits.UNLIMITED.toString());
        assertFalse(JobPermits.UNLIMITED.wouldWait(), "no cap: nothing ever waits");
        assertFalse(a.wouldWait(), "a permit is free");
        assertTrue(a.take());
        assertEquals(1, cap.alive());
        assertEquals("JobShares[alive 1 of 2, waiting []]", cap.toString());
        // toString takes the lock and gives it back: another thread can still use the cap afterwards.
        try (ExecutorService other = Executors.newSingleThreadExecutor()) {
            assertEquals("JobShares[alive 1 of 2, waiting []]", other.submit(cap::toString).get(10, TimeUnit.SECONDS));
        }
        try (ExecutorService other = Executors.newSingleThreadExecutor()) {
            assertEquals(1, other.submit(cap::alive).get(10, TimeUnit.SECONDS));
        }
        assertTrue(a.take());
        assertTrue(a.wouldWait(), "both permits are held");
    }

    @Test
    void withdrawingEndsTheOwnersOwnWait() {
        EngineJobCap cap = new EngineJobCap(1);
        JobPermits holder = join(cap, "holder");
        JobPermits waiter = join(cap, "waiter");
        assertTrue(holder.take());
        assertFalse(waiter.take());
        Owner owner = awaiting(waiter, "waiter-owner");
        waiter.withdraw();
        await().atMost(BOUND).until(owner.ended()::isDone);
        assertNull(owner.ended().join());
        assertEquals(0, cap.waiting());
    }

    @Test
    void withdrawingAHandedPermitWakesTheOwnerItGoesOnTo() {
        EngineJobCap cap = new EngineJobCap(1);
        JobPermits holder = join(cap, "holder");
        JobPermits gone = join(cap, "gone");
        JobPermits next = join(cap, "next");
        assertTrue(holder.take());
        assertFalse(gone.take());
        assertFalse(next.take());
        Owner nextOwner = awaiting(next, "next-owner");
        holder.release();
        gone.withdraw();
        await().atMost(BOUND).until(nextOwner.ended()::isDone);
        assertNull(nextOwner.ended().join());
        assertTrue(next.take(), "the permit gone did not use was handed to next");
    }

    @Test
    void keepingASecondPermitWakesTheOwnerItIsReleasedTo() {
        EngineJobCap cap = new EngineJobCap(2);
        JobPermits rerun = join(cap, "rerun");
        JobPermits other = join(cap, "other");
        JobPermits late = join(cap, "late");
        assertTrue(rerun.take());
        assertTrue(other.take());
        assertFalse(rerun.take());
        other.release();
        assertFalse(late.take());
        Owner lateOwner = awaiting(late, "late-owner");
        rerun.keep();
        await().atMost(BOUND).until(lateOwner.ended()::isDone);
        assertNull(lateOwner.ended().join());
        assertTrue(late.take());
    }

    @Test
    void keepingAPermitForTheReRunEndsTheOwnersOwnWait() {
        EngineJobCap cap = new EngineJobCap(2);
        JobPermits rerun = join(cap, "rerun");
        JobPermits other = join(cap, "other");
        assertTrue(rerun.take());
        assertTrue(other.take());
        assertFalse(rerun.take());
        Owner owner = awaiting(rerun, "rerun-owner");
        rerun.keep();
        await().atMost(BOUND).until(owner.ended()::isDone);
        assertNull(owner.ended().join());
        assertTrue(rerun.take(), "the kept permit is the re-run's");
    }

    @Test
    void closingEndsTheOwnersOwnWait() {
        EngineJobCap cap = new EngineJobCap(1);
        JobPermits holder = join(cap, "holder");
        JobPermits stopped = join(cap, "stopped");
        assertTrue(holder.take());
        assertFalse(stopped.take());
        Owner owner = awaiting(stopped, "stopped-owner");
        stopped.close();
        await().atMost(BOUND).until(owner.ended()::isDone);
        assertNull(owner.ended().join());
        assertFalse(stopped.take(), "closed");
    }

    @Test
    void closingARequestWithAHandedPermitWakesTheOwnerItGoesOnTo() {
        EngineJobCap cap = new EngineJobCap(1);
        JobPermits holder = join(cap, "holder");
        JobPermits stopped = join(cap, "stopped");
        JobPermits next = join(cap, "next");
        assertTrue(holder.take());
        assertFalse(stopped.take());
        assertFalse(next.take());
        Owner nextOwner = awaiting(next, "next-owner");
        holder.release();
        stopped.close();
        await().atMost(BOUND).until(nextOwner.ended()::isDone);
        assertNull(nextOwner.ended().join());
        assertTrue(next.take(), "the permit stopped did not use was handed to next");
    }

    /**
     * An owner interrupted just as a permit is handed to it: its wait ends with the interrupt, and the permit goes on
     * to the next waiting owner, who is woken. The test holds the cap's lock so that the interrupt is seen before the
     * hand-over's signal (otherwise the owner's wait would end normally, with the permit).
     */
    @Test
    void anOwnerInterruptedAsAPermitIsHandedToItPassesItOnAndWakesTheNextOwner() throws Exception {
        EngineJobCap cap = new EngineJobCap(1);
        JobPermits holder = join(cap, "holder");
        JobPermits interrupted = join(cap, "interrupted");
        JobPermits next = join(cap, "next");
        assertTrue(holder.take());
        assertFalse(interrupted.take());
        assertFalse(next.take());
        Owner interruptedOwner = awaiting(interrupted, "interrupted-owner");
        Owner nextOwner = awaiting(next, "next-owner");
        ReentrantLock lock = lockOf(cap);
        lock.lock();
        try {
            interruptedOwner.thread().interrupt();
            // Its wait is cancelled by the interrupt: it queues for the lock to throw.
            await().atMost(BOUND).until(() -> lock.hasQueuedThread(interruptedOwner.thread()));
            holder.release();
            assertEquals(1, cap.waiting(), "the permit is handed to interrupted; next still waits");
        } finally {
            lock.unlock();
        }
        await().atMost(BOUND).until(interruptedOwner.ended()::isDone);
        assertInstanceOf(InterruptedException.class, interruptedOwner.ended().join());
        await().atMost(BOUND).until(nextOwner.ended()::isDone);
        assertNull(nextOwner.ended().join());
        assertTrue(next.take(), "the permit handed to the interrupted owner went on to next");
        assertEquals(1, cap.alive());
    }

    private static ReentrantLock lockOf(EngineJobCap cap) throws ReflectiveOperationException {
        Field field = EngineJobCap.class.getDeclaredField("lock");
        field.setAccessible(true);
        return (ReentrantLock) field.get(cap);
    }
}
