package dev.orderly.archtests;

import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.lang.EvaluationResult;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.PrintStream;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Timeout;

/**
 * "No System.out/System.err in api and engine" ({@link OutputRules#noSystemOutOrErr}) matched only the two fields and
 * {@code Throwable.printStackTrace()}. {@code Thread.dumpStack()} prints a stack trace to {@code System.err} just as
 * {@code printStackTrace()} does, and {@code FileDescriptor.out}/{@code err} is the console without the
 * {@code System} field: both passed the rule. The bad classes are nested here; the rule is pointed at this package
 * through a {@link Layout} whose "engine" is {@code dev.orderly.archtests}.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class ThreadDumpStackAndFileDescriptorOutAreConsoleOutputTest {

    private static final Layout HERE = new Layout(
            "dev.orderly.archtests.noapi", "dev.orderly.archtests", "dev.orderly.archtests.nointernal");

    /** A stack trace on System.err, as printStackTrace() writes it. */
    static final class DumpStack {
        void trace() {
            Thread.dumpStack();
        }
    }

    /** The console's own file descriptor. */
    static final class FileDescriptorOut {
        PrintStream console() {
            return new PrintStream(new FileOutputStream(FileDescriptor.out), true);
        }
    }

    /** The console's error descriptor. */
    static final class FileDescriptorErr {
        PrintStream console() {
            return new PrintStream(new FileOutputStream(FileDescriptor.err), true);
        }
    }

    @ParameterizedTest
    @ValueSource(classes = {DumpStack.class, FileDescriptorOut.class, FileDescriptorErr.class})
    void theConsoleRuleCatchesIt(Class<?> bad) {
        JavaClasses classes = new ClassFileImporter().importClasses(bad);
        EvaluationResult result = OutputRules.noSystemOutOrErr(HERE).evaluate(classes);
        assertTrue(result.hasViolation(), () -> bad.getSimpleName() + " passed the console rule");
        List<String> details = result.getFailureReport().getDetails();
        assertTrue(details.stream().anyMatch(d -> d.contains(bad.getName())), () -> details.toString());
    }
}
