package dev.orderly.tier2;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orderly.api.Job;
import dev.orderly.grpc.JobWorker;
import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.RepeatedTest;

/**
 * Regression: a {@code --worker} class whose static initializer threw was reported as "no such class on the class
 * path (java.lang.ExceptionInInitializerError)", which sent one looking for a missing jar and left out the cause.
 * It says the class failed to initialize, with the cause's message, the first time and every time after (the JVM
 * then throws NoClassDefFoundError "Could not initialize class").
 */
class AWorkerWhoseStaticInitializerThrowsIsSaidToTest {

    /** A worker whose configuration is missing. */
    public static final class BadStaticInit implements JobWorker {
        static {
            if (Boolean.TRUE) {
                throw new IllegalStateException("config missing: WORKER_HOME");
            }
        }

        @Override
        public void run(Job job, byte[] work) {
        }
    }

    @RepeatedTest(2)
    void itSaysTheClassFailedToInitializeAndWhy() {
        StringWriter err = new StringWriter();
        int code = Tier2Main.execute(new String[] {"--outputs=target/tier2-static-init",
            "--worker=" + BadStaticInit.class.getName()},
                new PrintWriter(new StringWriter(), true), new PrintWriter(err, true));
        String said = err.toString().strip();
        assertEquals(2, code, said);
        assertEquals(1, said.lines().count(), said);
        assertFalse(said.contains("no such class"), said);
        assertTrue(said.startsWith("tier2: --worker=" + BadStaticInit.class.getName() + " failed to initialize: "),
                said);
        // the JVM's record of the first failure, after it: "Exception java.lang.IllegalStateException: ... [in thread]"
        assertTrue(said.contains("java.lang.IllegalStateException: config missing: WORKER_HOME"), said);
    }
}
