package dev.orderly.archtests;

import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.EvaluationResult;
import java.util.Spliterator;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.ForkJoinTask;
import java.util.concurrent.RecursiveTask;
import java.util.concurrent.SubmissionPublisher;
import java.util.concurrent.TimeUnit;
import java.util.function.BiFunction;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * More calls that run work on a platform thread of the JDK's own pools, which the platform-thread rule let through in
 * api and engine: {@code StreamSupport.stream(spliterator, true)} is a parallel stream as much as
 * {@code parallelStream()} is, and runs on the common {@code ForkJoinPool} (the flag is an argument, which a call rule
 * cannot read, so every {@code StreamSupport} stream is refused; api and engine use none); {@code ForkJoinTask.fork()}
 * and {@code invokeAll} called outside a pool run the task on the common pool; {@code new SubmissionPublisher<>()}
 * (and its constructors without an {@code Executor}) delivers on the common pool (or a new platform thread per task
 * when its parallelism is 1); a {@code ConcurrentHashMap} bulk operation given a parallelism threshold
 * ({@code forEach(1, action)}) runs on the common pool above it; and {@code CompletableFuture.defaultExecutor()} hands
 * out the common pool itself. The
 * bad classes are nested here and the rule pointed at this package through a {@link Layout} whose "engine" is
 * {@code dev.orderly.archtests}.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class StreamSupportForkSubmissionPublisherAndDefaultExecutorAreCaughtByThePlatformThreadRuleTest {

    private static final Layout HERE = new Layout(
            "dev.orderly.archtests.noapi", "dev.orderly.archtests", "dev.orderly.archtests.nointernal");

    static final class ParallelStreamSupport {
        long count(Spliterator<Integer> values) {
            return StreamSupport.stream(values, true).count();
        }
    }

    static final class ParallelIntStreamSupport {
        long count(Spliterator.OfInt values) {
            return StreamSupport.intStream(values, true).count();
        }
    }

    static final class StreamSupportReference {
        BiFunction<Spliterator<Integer>, Boolean, Stream<Integer>> streams() {
            return StreamSupport::stream;
        }
    }

    static final class Fork {
        Object start(RecursiveTask<Integer> task) {
            return task.fork();
        }
    }

    static final class ForkOfASubclass {
        static final class Sum extends RecursiveTask<Integer> {
            @Override
            protected Integer compute() {
                return 0;
            }
        }

        Object start() {
            return new Sum().fork();
        }
    }

    static final class InvokeAll {
        void both(ForkJoinTask<?> a, ForkJoinTask<?> b) {
            ForkJoinTask.invokeAll(a, b);
        }
    }

    static final class NewSubmissionPublisher {
        Object publisher() {
            return new SubmissionPublisher<Integer>();
        }
    }

    static final class ParallelBulkOperation {
        void each(ConcurrentHashMap<String, Integer> map) {
            map.forEach(1, (key, value) -> { });
        }
    }

    static final class DefaultExecutor {
        Executor executor(CompletableFuture<Integer> f) {
            return f.defaultExecutor();
        }
    }

    @ParameterizedTest
    @ValueSource(classes = {ParallelStreamSupport.class, ParallelIntStreamSupport.class,
            StreamSupportReference.class, Fork.class, ForkOfASubclass.class, InvokeAll.class,
            NewSubmissionPublisher.class, ParallelBulkOperation.class, DefaultExecutor.class})
    void aCallThatRunsOnAJdkPlatformThreadBreaksTheRule(Class<?> bad) {
        ParallelSortAndCompletableFutureTimeoutsAreCaughtByThePlatformThreadRuleTest.assertThePlatformThreadRuleRejects(bad);
    }

    static final class PublisherOnAGivenExecutor {
        Object publisher(Executor executor) {
            return new SubmissionPublisher<Integer>(executor, 16);
        }
    }

    static final class SequentialForEach {
        void each(ConcurrentHashMap<String, Integer> map) {
            map.forEach((key, value) -> { });
        }
    }

    @ParameterizedTest
    @ValueSource(classes = {PublisherOnAGivenExecutor.class, SequentialForEach.class})
    void aPublisherOnAGivenExecutorKeepsTheRule(Class<?> good) {
        ArchRule rule = ConcurrencyRules.noPlatformThreads(HERE);
        EvaluationResult result = rule.evaluate(new ClassFileImporter().importClasses(good));
        assertTrue(!result.hasViolation(), () -> good.getSimpleName() + " broke the rule: "
                + result.getFailureReport().getDetails());
    }
}
