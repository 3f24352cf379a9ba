package dev.orderly.archtests;

import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.EvaluationResult;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Every call that runs work on a platform thread of the JDK's own pools breaks the platform-thread rule in api and
 * engine: {@code Arrays.parallelSort}, {@code parallelPrefix} and {@code parallelSetAll} sort and fill on the common
 * {@code ForkJoinPool}'s workers, and {@code CompletableFuture.orTimeout} and {@code completeOnTimeout} complete the
 * future, and so run every dependent stage, on the JDK's delay scheduler thread ({@code
 * ForkJoinPool.commonPool-delayScheduler} on JDK 25). The rule knew {@code commonPool()}, the {@code *Async} methods,
 * {@code delayedExecutor} and parallel streams, but neither of these. The bad classes are nested here and the rule
 * pointed at this package through a {@link Layout} whose "engine" is {@code dev.orderly.archtests}.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class ParallelSortAndCompletableFutureTimeoutsAreCaughtByThePlatformThreadRuleTest {

    private static final Layout HERE = new Layout(
            "dev.orderly.archtests.noapi", "dev.orderly.archtests", "dev.orderly.archtests.nointernal");

    static final class ParallelSort {
        void sort(int[] values) {
            Arrays.parallelSort(values);
        }
    }

    static final class ParallelPrefix {
        void sums(long[] values) {
            Arrays.parallelPrefix(values, Long::sum);
        }
    }

    static final class ParallelSetAll {
        void fill(int[] values) {
            Arrays.parallelSetAll(values, i -> i);
        }
    }

    static final class OrTimeout {
        CompletableFuture<Integer> bounded(CompletableFuture<Integer> f) {
            return f.orTimeout(1, TimeUnit.SECONDS);
        }
    }

    static final class CompleteOnTimeout {
        CompletableFuture<Integer> bounded(CompletableFuture<Integer> f) {
            return f.completeOnTimeout(0, 1, TimeUnit.SECONDS);
        }
    }

    // Already caught before: kept here so that the whole family is checked in one place.

    static final class SupplyAsync {
        Object future() {
            return CompletableFuture.supplyAsync(() -> 1);
        }
    }

    static final class RunAsync {
        Object future() {
            return CompletableFuture.runAsync(() -> { });
        }
    }

    static final class DelayedExecutor {
        Executor later() {
            return CompletableFuture.delayedExecutor(1, TimeUnit.SECONDS);
        }
    }

    static final class CommonPool {
        Object pool() {
            return ForkJoinPool.commonPool();
        }
    }

    static final class ParallelStream {
        long count(List<Integer> values) {
            return values.parallelStream().count();
        }
    }

    static final class Parallel {
        long count(List<Integer> values) {
            return values.stream().parallel().count();
        }
    }

    @ParameterizedTest
    @ValueSource(classes = {ParallelSort.class, ParallelPrefix.class, ParallelSetAll.class, OrTimeout.class,
            CompleteOnTimeout.class, SupplyAsync.class, RunAsync.class, DelayedExecutor.class, CommonPool.class,
            ParallelStream.class, Parallel.class})
    void aCallThatRunsOnAJdkPlatformThreadBreaksTheRule(Class<?> bad) {
        assertThePlatformThreadRuleRejects(bad);
    }

    /**
     * The platform-thread rule, pointed at this package, rejects {@code bad}, naming it in a violation that says it
     * calls (or takes a method reference to) what it must not.
     */
    static void assertThePlatformThreadRuleRejects(Class<?> bad) {
        ArchRule rule = ConcurrencyRules.noPlatformThreads(HERE);
        JavaClasses classes = new ClassFileImporter().importClasses(bad);
        EvaluationResult result = rule.evaluate(classes);
        assertTrue(result.hasViolation(), () -> bad.getSimpleName() + " passed: " + rule.getDescription());
        List<String> details = result.getFailureReport().getDetails();
        assertTrue(details.stream().anyMatch(d -> d.contains(bad.getName())
                        && (d.contains("calls ") || d.contains("references "))),
                () -> "expected a violation naming " + bad.getName() + ", got " + details);
    }
}
