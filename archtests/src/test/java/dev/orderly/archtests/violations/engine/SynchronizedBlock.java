package dev.orderly.archtests.violations.engine;

/** Bad: a synchronized block, which ArchUnit's own model can not see (it is a monitorenter instruction). */
public final class SynchronizedBlock {
    private final Object lock = new Object();
    private int count;

    public void increment() {
        synchronized (lock) {
            count++;
        }
    }
}
