package dev.orderly.archtests.violations.engine;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import dev.orderly.archtests.violations.api.CleanApiRecord;
import dev.orderly.archtests.violations.engine.internal.InternalDetail;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Good: what the engine is meant to look like. It waits on a {@link Condition}, runs on virtual threads, logs through
 * SLF4J, uses the api and its own internals, and marks its guarded field {@code @GuardedBy}. Every restricted rule must
 * pass on it.
 */
public final class CleanEngineClass {
    private static final Logger LOG = LoggerFactory.getLogger(CleanEngineClass.class);

    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    @GuardedBy("lock")
    private boolean ready;

    public void awaitReady(long nanos) throws InterruptedException {
        lock.lock();
        try {
            long left = nanos;
            while (!ready && left > 0) {
                left = changed.awaitNanos(left);
            }
        } finally {
            lock.unlock();
        }
    }

    public void markReady() {
        lock.lock();
        try {
            ready = true;
            changed.signal();
        } finally {
            lock.unlock();
        }
    }

    public void runJobs(CleanApiRecord record) throws Exception {
        Thread.ofVirtual().name("job").start(() -> LOG.info("job of {}", record.name())).join();
        Thread.startVirtualThread(() -> LOG.info("another job")).join();
        try (ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor()) {
            CompletableFuture.supplyAsync(() -> new InternalDetail().value(), executor)
                    .thenApplyAsync(v -> v + 1, executor)
                    .get(1, TimeUnit.SECONDS);
        }
        Thread.currentThread().interrupt();
    }
}
