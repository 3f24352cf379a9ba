package dev.orderly.archtests;

import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.lang.EvaluationResult;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * "No class in api or engine should use ... printStackTrace() or Thread.dumpStack()" ({@link OutputRules}) matched
 * only calls: {@code errors.forEach(Throwable::printStackTrace)} or {@code Thread::dumpStack} as a {@code Runnable}
 * write the same stack traces to {@code System.err}, but compile to an {@code invokedynamic} that ArchUnit imports as
 * a method reference, which {@code callMethodWhere} never sees (the escape the concurrency rules were closed against
 * in the same change). The bad classes are nested here; the rule is pointed at this package through a {@link Layout}
 * whose "engine" is {@code dev.orderly.archtests}.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class AMethodReferenceToPrintStackTraceOrDumpStackIsConsoleOutputTooTest {

    private static final Layout HERE = new Layout(
            "dev.orderly.archtests.noapi", "dev.orderly.archtests", "dev.orderly.archtests.nointernal");

    /** Every error's stack trace on System.err, through a method reference. */
    static final class PrintStackTraceReference {
        void report(List<Throwable> errors) {
            errors.forEach(Throwable::printStackTrace);
        }
    }

    /** The current stack on System.err, as a Runnable. */
    static final class DumpStackReference {
        Runnable tracer() {
            return Thread::dumpStack;
        }
    }

    @ParameterizedTest
    @ValueSource(classes = {PrintStackTraceReference.class, DumpStackReference.class})
    void theConsoleRuleCatchesTheReference(Class<?> bad) {
        JavaClasses classes = new ClassFileImporter().importClasses(bad);
        EvaluationResult result = OutputRules.noSystemOutOrErr(HERE).evaluate(classes);
        assertTrue(result.hasViolation(), () -> bad.getSimpleName() + " passed the console rule");
        List<String> details = result.getFailureReport().getDetails();
        assertTrue(details.stream().anyMatch(d -> d.contains(bad.getName())), () -> details.toString());
    }
}
