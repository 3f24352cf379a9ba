package dev.orderly.archtests;

import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.EvaluationResult;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A method or constructor reference ({@code Thread::new}, {@code Executors::newCachedThreadPool},
 * {@code Thread::sleep}, {@code lock::notifyAll}) runs the very code the concurrency rules forbid, but it compiles to
 * an {@code invokedynamic} that ArchUnit imports as a reference, not as a call: a rule written with
 * {@code callMethodWhere}/{@code callConstructorWhere} does not see it. The bad classes below are nested here, and
 * the rules are pointed at this package through a {@link Layout} whose "engine" is {@code dev.orderly.archtests}.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class AMethodOrConstructorReferenceEscapesTheConcurrencyRulesTest {

    private static final Layout HERE = new Layout(
            "dev.orderly.archtests.noapi", "dev.orderly.archtests", "dev.orderly.archtests.nointernal");

    /** {@code Thread::new} as the ThreadFactory of a thread-per-task executor: one platform thread per task. */
    static final class PlatformThreadFactoryByReference {
        ExecutorService pool() {
            ThreadFactory platform = Thread::new;
            return Executors.newThreadPerTaskExecutor(platform);
        }
    }

    /** A platform pool handed out by a method reference to its Executors factory. */
    static final class PlatformPoolByReference {
        Supplier<ExecutorService> pools() {
            return Executors::newCachedThreadPool;
        }
    }

    interface Pause {
        void pause(long millis) throws InterruptedException;
    }

    /** {@code Thread.sleep} by reference. */
    static final class SleepByReference {
        Pause pause() {
            return Thread::sleep;
        }
    }

    /** {@code Object.notifyAll} by reference. */
    static final class NotifyAllByReference {
        private final Object lock = new Object();

        Runnable wakeAll() {
            return lock::notifyAll;
        }
    }

    private static void assertCaught(ArchRule rule, Class<?> bad, String expected) {
        JavaClasses classes = new ClassFileImporter().importClasses(bad);
        EvaluationResult result = rule.evaluate(classes);
        assertTrue(result.hasViolation(), () -> bad.getSimpleName() + " passed: " + rule.getDescription());
        List<String> details = result.getFailureReport().getDetails();
        assertTrue(details.stream().anyMatch(d -> d.contains(bad.getName()) && d.contains(expected)),
                () -> "expected a violation naming " + bad.getName() + " and '" + expected + "', got " + details);
    }

    @Test
    void aThreadConstructorReferenceIsAPlatformThread() {
        assertCaught(ConcurrencyRules.noPlatformThreads(HERE), PlatformThreadFactoryByReference.class,
                "java.lang.Thread.<init>");
    }

    @Test
    void aReferenceToAPlatformPoolFactoryIsAPlatformPool() {
        assertCaught(ConcurrencyRules.noPlatformThreads(HERE), PlatformPoolByReference.class,
                "newCachedThreadPool");
    }

    @Test
    void aReferenceToThreadSleepIsASleep() {
        assertCaught(ConcurrencyRules.noThreadSleep(HERE), SleepByReference.class, ".sleep(");
    }

    @Test
    void aReferenceToNotifyAllIsAMonitorMethod() {
        assertCaught(ConcurrencyRules.noObjectMonitorMethods(HERE), NotifyAllByReference.class, "notifyAll");
    }
}
