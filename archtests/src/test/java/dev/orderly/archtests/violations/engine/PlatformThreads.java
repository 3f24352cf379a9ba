package dev.orderly.archtests.violations.engine;

import java.util.List;
import java.util.Timer;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/** Bad: every way the rule knows of to create or borrow a platform thread. */
public final class PlatformThreads {

    public static final class NewThread {
        public void start() {
            new Thread(() -> { }).start();
        }
    }

    public static final class ThreadSubclass extends Thread {
        @Override
        public void run() {
        }
    }

    public static final class OfPlatform {
        public void start() {
            Thread.ofPlatform().start(() -> { });
        }
    }

    public static final class FixedThreadPool {
        public Object pool() {
            return Executors.newFixedThreadPool(4);
        }
    }

    public static final class CachedThreadPool {
        public Object pool() {
            return Executors.newCachedThreadPool();
        }
    }

    public static final class SingleThreadExecutor {
        public Object pool() {
            return Executors.newSingleThreadExecutor();
        }
    }

    public static final class ScheduledThreadPool {
        public Object pool() {
            return Executors.newScheduledThreadPool(1);
        }
    }

    public static final class NewThreadPoolExecutor {
        public Object pool() {
            return new ThreadPoolExecutor(1, 1, 0, TimeUnit.SECONDS, new LinkedBlockingQueue<>());
        }
    }

    public static final class NewScheduledThreadPoolExecutor {
        public Object pool() {
            return new ScheduledThreadPoolExecutor(1);
        }
    }

    public static final class NewForkJoinPool {
        public Object pool() {
            return new ForkJoinPool(2);
        }
    }

    public static final class CommonPool {
        public Object pool() {
            return ForkJoinPool.commonPool();
        }
    }

    public static final class SupplyAsyncOnTheCommonPool {
        public Object future() {
            return CompletableFuture.supplyAsync(() -> 1);
        }
    }

    public static final class ThenApplyAsyncOnTheCommonPool {
        public Object future(CompletableFuture<Integer> f) {
            return f.thenApplyAsync(v -> v + 1);
        }
    }

    public static final class ParallelStream {
        public long count(List<Integer> values) {
            return values.parallelStream().count();
        }
    }

    public static final class NewTimer {
        public Object timer() {
            return new Timer();
        }
    }
}
