package dev.orderly.archtests.violations.engine;

/** Bad: a library writing to the console. */
public final class ConsoleOutput {

    public static final class SystemOut {
        public void report(long segment) {
            System.out.println("delivered " + segment);
        }
    }

    public static final class SystemErr {
        public void report(Exception e) {
            System.err.println("failed: " + e);
        }
    }

    public static final class PrintStackTrace {
        public void report(IllegalStateException e) {
            e.printStackTrace();
        }
    }
}
