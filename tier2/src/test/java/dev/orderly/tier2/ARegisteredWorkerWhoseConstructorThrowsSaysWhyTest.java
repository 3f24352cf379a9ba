package dev.orderly.tier2;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orderly.api.Job;
import dev.orderly.grpc.JobWorker;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Regression: a worker registered in {@code META-INF/services} whose constructor threw was said in
 * {@link java.util.ServiceLoader}'s words alone ({@code ... can not be made: dev.orderly.grpc.JobWorker: Provider X
 * could not be instantiated}), without what it threw: the reason (a setting it missed, say) was lost, where the same
 * class named with {@code --worker} says "its constructor threw ...". Likewise an abstract registered class.
 */
class ARegisteredWorkerWhoseConstructorThrowsSaysWhyTest {

    @TempDir
    Path dir;

    /** A worker that needs a setting it does not find. */
    public static final class NeedsASetting implements JobWorker {
        public NeedsASetting() {
            throw new IllegalStateException("WORKER_DB_URL is not set");
        }

        @Override
        public void run(Job job, byte[] work) {
        }
    }

    /** A worker class that can not be made at all. */
    public abstract static class Abstract implements JobWorker {
    }

    private record Said(int code, String line) {
    }

    private Said runRegistering(Class<?> worker) throws Exception {
        Path services = Files.createDirectories(dir.resolve("META-INF/services"));
        Files.writeString(services.resolve(JobWorker.class.getName()), worker.getName() + "\n");
        Thread me = Thread.currentThread();
        ClassLoader before = me.getContextClassLoader();
        try (URLClassLoader loader = new URLClassLoader(new URL[] {dir.toUri().toURL()}, getClass().getClassLoader())) {
            me.setContextClassLoader(loader);
            StringWriter err = new StringWriter();
            int code = Tier2Main.execute(new String[] {"--outputs=" + dir.resolve("out")},
                    new PrintWriter(new StringWriter()), new PrintWriter(err));
            return new Said(code, err.toString().strip());
        } finally {
            me.setContextClassLoader(before);
        }
    }

    @Test
    void whatTheConstructorThrewIsSaid() throws Exception {
        Said s = runRegistering(NeedsASetting.class);
        assertEquals(2, s.code(), s.line());
        assertEquals(1, s.line().lines().count(), s.line());
        assertTrue(s.line().contains("WORKER_DB_URL is not set"), s.line());
        assertTrue(s.line().contains(NeedsASetting.class.getName()), s.line());
    }

    @Test
    void anAbstractRegisteredClassIsSaidToBeAbstract() throws Exception {
        Said s = runRegistering(Abstract.class);
        assertEquals(2, s.code(), s.line());
        assertTrue(s.line().contains(Abstract.class.getName() + " is abstract"), s.line());
    }
}
