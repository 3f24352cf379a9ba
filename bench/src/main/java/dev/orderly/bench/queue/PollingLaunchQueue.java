package dev.orderly.bench.queue;

import dev.orderly.api.EngineConfig;
import dev.orderly.api.JobKey;
import dev.orderly.engine.DialGate;
import dev.orderly.engine.LaunchQueue;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The baseline the benchmarks measure {@link LaunchQueue} against: an ordered launch queue built the way the original
 * design would build it, by polling. Benchmarks only; it is not part of the library.
 *
 * <h2>How it behaves</h2>
 * Every job that calls {@link #awaitTurn} is registered in a map of queued jobs (there is no "no queue, no wait" fast
 * path). Then it checks, under the lock, whether it may dial: it finds its position by scanning <em>every</em> queued
 * job and counting those ahead of it in launch order; it may dial when that position is inside the window, its
 * not-before time has passed and fewer than {@code window} queued jobs are dialing. If it may not, it releases the lock,
 * sleeps {@code refusedDelay} and checks again. Nobody is ever signalled: a {@link #leave} only removes the entry, and
 * the job behind it notices on its next check. So a waiting job outside the window still wakes up
 * {@code 1 / refusedDelay} times a second and pays an {@code O(n)} scan each time, and the latency from a leave to the
 * next job's dial is up to one {@code refusedDelay}.
 *
 * <h2>Invariants (all guarded by {@code lock})</h2>
 * <ul>
 *   <li>{@code queued} holds one {@link Entry} per queued key; it is not ordered (positions come from scanning).
 *   <li>{@code dialing} equals the number of entries whose {@code dialing} flag is set, and never exceeds the window.
 * </ul>
 * Interrupting a waiting thread makes {@code awaitTurn} throw {@link InterruptedException} and removes the job.
 *
 * <p>This class is thread-safe. One live job per key, as for {@link LaunchQueue}.
 */
public final class PollingLaunchQueue implements DialGate {

    private final ReentrantLock lock = new ReentrantLock();
    private final int window;
    private final Duration refusedDelay;
    private final long refusedDelayNanos;
    private final long failureDelayNanos;

    // guarded by lock
    private final Map<JobKey, Entry> queued = new HashMap<>();
    // guarded by lock
    private int dialing;
    // Diagnostics, added to under the lock but read without it: a benchmark that reads them must not have to queue
    // for a lock that thousands of polling threads contend for.
    private final LongAdder wakeUps = new LongAdder();
    private final LongAdder wakeUpsOutsideWindow = new LongAdder();

    /** One queued job. Every field is guarded by the queue's lock. */
    private static final class Entry {
        long notBeforeNanos;
        boolean dialing;
        Thread waiter;

        Entry(long notBeforeNanos) {
            this.notBeforeNanos = notBeforeNanos;
        }
    }

    /**
     * A queue for one request of {@code workers} workers, with the same window as {@link LaunchQueue} and a polling
     * period of {@code config.refusedDelay()}.
     *
     * @throws IllegalArgumentException if {@code workers < 1}
     */
    public PollingLaunchQueue(int workers, EngineConfig config) {
        this.window = LaunchQueue.windowSize(workers, config);
        this.refusedDelay = config.refusedDelay();
        this.refusedDelayNanos = refusedDelay.toNanos();
        this.failureDelayNanos = config.failureDelay().toNanos();
    }

    /**
     * Registers the job if it is not queued and checks every {@code refusedDelay} until it may dial; then it holds a
     * dial slot until {@link #refused} or {@link #leave}. Returns at once if another thread makes the job leave.
     *
     * @throws InterruptedException if the thread is interrupted; the job is then no longer queued
     * @throws IllegalStateException if another thread waits for the same key, or the key holds a dial slot already
     */
    @Override
    public void awaitTurn(JobKey key) throws InterruptedException {
        Objects.requireNonNull(key, "key");
        Entry entry = register(key);
        try {
            boolean woken = false;
            while (true) {
                lock.lock();
                try {
                    if (Thread.interrupted()) {
                        throw new InterruptedException();
                    }
                    if (queued.get(key) != entry) {
                        return;
                    }
                    boolean inWindow = positionOf(key) < window;
                    if (woken) {
                        wakeUps.increment();
                        if (!inWindow) {
                            wakeUpsOutsideWindow.increment();
                        }
                    }
                    if (inWindow && entry.notBeforeNanos - System.nanoTime() <= 0 && dialing < window) {
                        entry.dialing = true;
                        dialing++;
                        return;
                    }
                } finally {
                    lock.unlock();
                }
                // The polling this class exists to measure: sleep a refusedDelay, then look again.
                Thread.sleep(refusedDelay);
                woken = true;
            }
        } catch (InterruptedException e) {
            lock.lock();
            try {
                if (queued.get(key) == entry) {
                    remove(key, entry);
                }
            } finally {
                lock.unlock();
            }
            throw e;
        } finally {
            lock.lock();
            try {
                entry.waiter = null;
            } finally {
                lock.unlock();
            }
        }
    }

    private Entry register(JobKey key) {
        lock.lock();
        try {
            Entry entry = queued.get(key);
            if (entry == null) {
                entry = new Entry(System.nanoTime());
                queued.put(key, entry);
            } else if (entry.waiter != null) {
                throw new IllegalStateException(key + " already has a thread waiting for its turn");
            } else if (entry.dialing) {
                throw new IllegalStateException(key + " is dialing already; report refused or leave first");
            }
            entry.waiter = Thread.currentThread();
            return entry;
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void refused(JobKey key) {
        requeue(key, refusedDelayNanos);
    }

    /** The job got in and failed: it keeps (or takes) its place and may dial again {@code failureDelay} from now. */
    @Override
    public void failed(JobKey key) {
        requeue(key, failureDelayNanos);
    }

    private void requeue(JobKey key, long delayNanos) {
        Objects.requireNonNull(key, "key");
        lock.lock();
        try {
            long notBefore = System.nanoTime() + delayNanos;
            Entry entry = queued.get(key);
            if (entry == null) {
                queued.put(key, new Entry(notBefore));
            } else {
                entry.notBeforeNanos = notBefore;
                releaseDialSlot(entry);
            }
        } finally {
            lock.unlock();
        }
    }

    /** Removes the job; the one behind it finds out on its next check. Idempotent. */
    @Override
    public void leave(JobKey key) {
        Objects.requireNonNull(key, "key");
        lock.lock();
        try {
            Entry entry = queued.get(key);
            if (entry != null) {
                remove(key, entry);
            }
        } finally {
            lock.unlock();
        }
    }

    /** The number of queued jobs. */
    public int size() {
        lock.lock();
        try {
            return queued.size();
        } finally {
            lock.unlock();
        }
    }

    /** The number of queued jobs that may dial at once. */
    public int windowSize() {
        return window;
    }

    /**
     * The figures {@link LaunchQueue#stats()} gives, for this queue: {@code dialing} counts queued jobs only (this
     * queue has no no-queue path). The wake-up counts are read without the lock.
     */
    public LaunchQueue.Stats stats() {
        long wokenOutside = wakeUpsOutsideWindow.sum();
        long woken = wakeUps.sum();
        lock.lock();
        try {
            return new LaunchQueue.Stats(queued.size(), dialing, woken, wokenOutside);
        } finally {
            lock.unlock();
        }
    }

    // ---- everything below runs with the lock held

    /** How many queued jobs are ahead of {@code key}: a scan of all of them, as the original design does. */
    private int positionOf(JobKey key) {
        int ahead = 0;
        for (JobKey other : queued.keySet()) {
            if (other.compareTo(key) < 0) {
                ahead++;
            }
        }
        return ahead;
    }

    private void remove(JobKey key, Entry entry) {
        queued.remove(key);
        releaseDialSlot(entry);
    }

    private void releaseDialSlot(Entry entry) {
        if (entry.dialing) {
            entry.dialing = false;
            dialing--;
        }
    }

    @Override
    public String toString() {
        return "PollingLaunchQueue[window=" + window + ", refusedDelay=" + refusedDelay.toMillis() + "ms]";
    }
}
