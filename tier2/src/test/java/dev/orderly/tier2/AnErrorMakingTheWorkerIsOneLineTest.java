package dev.orderly.tier2;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orderly.grpc.JobWorker;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Regression: an {@link Error} while the worker was made (a {@code NoClassDefFoundError} from a jar missing beside the
 * worker's, thrown by its {@code JobWorkerProvider.create}) escaped picocli's handler: a full stack trace and exit
 * code 16. It is one line and exit 1, as any other failure to make the worker; a {@link VirtualMachineError} still
 * propagates, for nothing can be trusted after one.
 */
@Timeout(120)
class AnErrorMakingTheWorkerIsOneLineTest {

    @TempDir
    Path dir;

    /** A provider whose worker needs a class that is not on the class path. */
    public static final class MissingDependency implements JobWorkerProvider {
        @Override
        public JobWorker create(List<String> options) {
            throw new NoClassDefFoundError("com/example/MissingDependency");
        }
    }

    /** A provider that runs out of stack. */
    public static final class Overflowing implements JobWorkerProvider {
        @Override
        public JobWorker create(List<String> options) {
            throw new StackOverflowError("deep");
        }
    }

    private static int run(StringWriter err, String... args) {
        return Tier2Main.execute(args, new PrintWriter(new StringWriter(), true), new PrintWriter(err, true));
    }

    @Test
    void anErrorFromTheProviderIsOneLineAndExitOne() {
        StringWriter err = new StringWriter();
        int code = run(err, "--outputs=" + dir.resolve("out"), "--worker=" + MissingDependency.class.getName());
        assertEquals(1, code, err.toString());
        assertEquals("tier2: can not make the worker: java.lang.NoClassDefFoundError: com/example/MissingDependency",
                err.toString().strip());
    }

    @Test
    void aVirtualMachineErrorPropagates() {
        StackOverflowError e = assertThrows(StackOverflowError.class,
                () -> run(new StringWriter(), "--outputs=" + dir.resolve("out"),
                        "--worker=" + Overflowing.class.getName()));
        assertEquals("deep", e.getMessage());
    }

    @Test
    void theProcessSaysOneLineAndExitsWithOne() throws Exception {
        Tier2Child.Ended e = Tier2Child.runToExit(dir.resolve("logs"), Duration.ofSeconds(60),
                "--outputs=" + dir.resolve("out"), "--worker=" + MissingDependency.class.getName());
        assertEquals(1, e.code(), e.err());
        assertEquals(1, e.err().lines().count(), e.err());
        assertTrue(e.err().startsWith("tier2: can not make the worker: java.lang.NoClassDefFoundError"), e.err());
    }
}
