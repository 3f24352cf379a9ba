package dev.orderly.archtests.violations.engine;

/** Bad: waiting and waking through Object's monitor methods, in each form javac compiles them to. */
public final class MonitorMethods {

    /** {@code lock.wait()} on a plain {@code Object}: the call's owner is {@code java.lang.Object}. */
    public static final class WaitOnALock {
        private final Object lock = new Object();

        public void await() throws InterruptedException {
            synchronized (lock) {
                lock.wait();
            }
        }
    }

    /** {@code wait(long)} on {@code this}: javac compiles it as a call of {@code WaitOnThis.wait}. */
    public static final class WaitOnThis {
        public synchronized void await() throws InterruptedException {
            wait(100);
        }
    }

    /** {@code wait(long, int)}. */
    public static final class WaitWithNanos {
        public synchronized void await() throws InterruptedException {
            this.wait(1, 500);
        }
    }

    /** {@code notify()}. */
    public static final class Notify {
        public synchronized void wake() {
            notify();
        }
    }

    /** {@code notifyAll()} on a lock object. */
    public static final class NotifyAll {
        private final Object lock = new Object();

        public void wakeAll() {
            synchronized (lock) {
                lock.notifyAll();
            }
        }
    }
}
