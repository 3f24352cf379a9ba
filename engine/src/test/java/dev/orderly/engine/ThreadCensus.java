package dev.orderly.engine;

import dev.orderly.engine.internal.OrderlyEngine;
import dev.orderly.api.EngineConfig;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.Consumer;

/** Keeps every thread an engine creates for its requests (through the request scope's thread factory). */
public final class ThreadCensus implements Consumer<Thread> {

    private final Queue<Thread> threads = new ConcurrentLinkedQueue<>();

    @Override
    public void accept(Thread thread) {
        threads.add(thread);
    }

    /** An engine whose request threads this census sees. */
    public OrderlyEngine engine(EngineConfig config) {
        return new OrderlyEngine(config, this);
    }

    public int created() {
        return threads.size();
    }

    public long alive() {
        return threads.stream().filter(Thread::isAlive).count();
    }

    public boolean allVirtual() {
        return threads.stream().allMatch(Thread::isVirtual);
    }
}
