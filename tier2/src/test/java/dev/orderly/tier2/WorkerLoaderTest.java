package dev.orderly.tier2;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orderly.grpc.JobWorker;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The worker a tier2 runs is the one registered with {@link java.util.ServiceLoader} (a {@code JobWorker} or a
 * {@code JobWorkerProvider}), or the class {@code --worker} names; none or several registered is a one-line error.
 */
class WorkerLoaderTest {

    @TempDir
    Path dir;

    /** A class loader that sees the test classes and registers {@code workers} under {@code service}. */
    private ClassLoader registering(Class<?> service, Class<?>... workers) throws Exception {
        Path services = Files.createDirectories(dir.resolve("META-INF/services"));
        StringBuilder lines = new StringBuilder();
        for (Class<?> w : workers) {
            lines.append(w.getName()).append('\n');
        }
        Files.writeString(services.resolve(service.getName()), lines);
        return new URLClassLoader(new URL[] {dir.toUri().toURL()}, getClass().getClassLoader());
    }

    @Test
    void oneRegisteredWorkerIsTheOneRun() throws Exception {
        JobWorker w = WorkerLoader.load(null, List.of(), registering(JobWorker.class, TestWorkers.Echo.class));
        assertInstanceOf(TestWorkers.Echo.class, w);
    }

    @Test
    void oneRegisteredProviderMakesTheWorkerFromTheOptions() throws Exception {
        JobWorker w = WorkerLoader.load(null, List.of("--greeting=hi"),
                registering(JobWorkerProvider.class, TestWorkers.Provider.class));
        assertInstanceOf(JobWorker.WithContext.class, w);
    }

    @Test
    void twoRegisteredWorkersAreOneLineNamingBoth() throws Exception {
        ClassLoader loader = registering(JobWorker.class, TestWorkers.Echo.class, TestWorkers.Other.class);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> WorkerLoader.load(null, List.of(), loader));
        assertEquals(1, e.getMessage().lines().count(), e.getMessage());
        assertTrue(e.getMessage().contains(TestWorkers.Echo.class.getName())
                && e.getMessage().contains(TestWorkers.Other.class.getName())
                && e.getMessage().contains("--worker=CLASS"), e.getMessage());
    }

    @Test
    void workerNamedOnTheCommandLineWinsOverTheRegisteredOnes() throws Exception {
        ClassLoader loader = registering(JobWorker.class, TestWorkers.Echo.class, TestWorkers.Other.class);
        assertInstanceOf(TestWorkers.Other.class,
                WorkerLoader.load(TestWorkers.Other.class.getName(), List.of(), loader));
    }

    @Test
    void optionsForAWorkerWithoutProviderAreUnknownOptions() throws Exception {
        ClassLoader loader = registering(JobWorker.class, TestWorkers.Echo.class);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> WorkerLoader.load(null, List.of("--stages=2"), loader));
        assertTrue(e.getMessage().contains("unknown option '--stages=2'"), e.getMessage());
    }

    @Test
    void registeredClassThatIsNoWorkerIsOneLine() throws Exception {
        ClassLoader loader = registering(JobWorker.class, String.class);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> WorkerLoader.load(null, List.of(), loader));
        assertEquals(1, e.getMessage().lines().count(), e.getMessage());
    }
}
