package dev.orderly.archtests.violations.engine;

/** Bad: synchronized methods, an instance one and a static one. */
public final class SynchronizedMethods {

    /** An instance method holding this object's monitor. */
    public static final class OnTheInstance {
        private int count;

        public synchronized void increment() {
            count++;
        }
    }

    /** A static method holding the class's monitor. */
    public static final class OnTheClass {
        private static int count;

        public static synchronized void increment() {
            count++;
        }
    }
}
