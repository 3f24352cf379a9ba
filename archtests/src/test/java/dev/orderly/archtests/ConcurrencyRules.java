package dev.orderly.archtests;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noMethods;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaAccess;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaCodeUnitAccess;
import com.tngtech.archunit.core.domain.JavaConstructor;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.lang.ArchRule;
import java.util.List;
import java.util.Set;
import java.util.Timer;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.Executors;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ForkJoinTask;
import java.util.concurrent.SubmissionPublisher;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.stream.StreamSupport;

/**
 * How {@code api} and {@code engine} may wait and run things: waiting is a
 * {@code ReentrantLock} {@code Condition}, threads are virtual. The simulator is not restricted: it may sleep, print
 * and use any thread it likes.
 */
final class ConcurrencyRules {

    private static final String BECAUSE_LOCKS = "waiting is a ReentrantLock Condition: targeted wake-ups and"
            + " interruptible timed waits";

    private static final Set<String> PLATFORM_POOL_FACTORIES = Set.of(
            "newFixedThreadPool", "newCachedThreadPool", "newSingleThreadExecutor", "newScheduledThreadPool",
            "newSingleThreadScheduledExecutor", "newWorkStealingPool", "defaultThreadFactory",
            "privilegedThreadFactory");

    private ConcurrencyRules() {
    }

    /** No method of api or engine is declared {@code synchronized}. */
    static ArchRule noSynchronizedMethods(Layout layout) {
        return noMethods().that().areDeclaredInClassesThat().resideInAnyPackage(restricted(layout))
                .should().haveModifier(JavaModifier.SYNCHRONIZED)
                .as("no method in api or engine should be synchronized")
                .because(BECAUSE_LOCKS);
    }

    /**
     * No {@code synchronized} block in api or engine. ArchUnit's model has no notion of a monitor (a block compiles to
     * {@code monitorenter}/{@code monitorexit} instructions, which ArchUnit does not import), so this rule reads each
     * class file itself with the JDK's {@code java.lang.classfile} API; see {@link MonitorEnterScan}.
     */
    static ArchRule noSynchronizedBlocks(Layout layout) {
        return classes().that().resideInAnyPackage(restricted(layout))
                .should(MonitorEnterScan.notEnterAMonitor())
                .as("no class in api or engine should contain a synchronized block")
                .because(BECAUSE_LOCKS);
    }

    /**
     * No {@code Object.wait}, {@code notify} or {@code notifyAll} in api or engine. The call is matched by name and
     * parameter types, whatever the receiver's declared type ({@code this.wait()} in class {@code Foo} is compiled as
     * a call of {@code Foo.wait}): these methods are final in {@code Object}, so nothing else can declare them.
     */
    static ArchRule noObjectMonitorMethods(Layout layout) {
        return noClasses().that().resideInAnyPackage(restricted(layout))
                .should().accessTargetWhere(callOrReference(OBJECT_MONITOR_METHOD))
                .as("no class in api or engine should call Object.wait, notify or notifyAll")
                .because(BECAUSE_LOCKS);
    }

    /**
     * No {@code Thread.sleep} in api or engine, nor its disguise {@code TimeUnit.sleep}: a delay is a timed wait on a
     * condition, which an interrupt or a signal ends early.
     */
    static ArchRule noThreadSleep(Layout layout) {
        return noClasses().that().resideInAnyPackage(restricted(layout))
                .should().accessTargetWhere(callOrReference(SLEEP))
                .as("no class in api or engine should call Thread.sleep or TimeUnit.sleep")
                .because("a delay is a timed Condition wait; sleeping can neither be signalled nor skip the"
                        + " wait when the condition already holds");
    }

    /**
     * No platform threads created or borrowed in api or engine: no {@code Thread} constructor (so no {@code new
     * Thread} and no subclass of {@code Thread}), no {@code Thread.ofPlatform()}, no {@code Executors} factory whose
     * pool runs on platform threads, no {@code ThreadPoolExecutor}, {@code ScheduledThreadPoolExecutor},
     * {@code ForkJoinPool} or {@code java.util.Timer}, and none of the calls that run work on the common
     * {@code ForkJoinPool}: {@code ForkJoinPool.commonPool()}, {@code CompletableFuture}/{@code CompletionStage}
     * {@code *Async} methods without an {@code Executor}, {@code delayedExecutor}, and parallel streams; nor the
     * calls that borrow a JDK platform thread less visibly: {@code Arrays.parallelSort}, {@code parallelPrefix} and
     * {@code parallelSetAll} (the common pool's workers) and {@code CompletableFuture.orTimeout} and
     * {@code completeOnTimeout} (the JDK's delay scheduler thread completes the future and runs its dependent stages);
     * nor {@code CompletableFuture.defaultExecutor()}, any {@code StreamSupport} stream (its parallel flag is an
     * argument), {@code ForkJoinTask.fork} and {@code invokeAll}, a {@code SubmissionPublisher} without an
     * {@code Executor}, or a {@code ConcurrentHashMap} bulk operation with a parallelism threshold (the common pool).
     * {@code Thread.ofVirtual()}, {@code Thread.startVirtualThread} and
     * {@code Executors.newVirtualThreadPerTaskExecutor()} are what the engine uses instead.
     */
    static ArchRule noPlatformThreads(Layout layout) {
        return noClasses().that().resideInAnyPackage(restricted(layout))
                .should().accessTargetWhere(callOrReference(PLATFORM_THREAD_CONSTRUCTOR))
                .orShould().accessTargetWhere(callOrReference(PLATFORM_THREAD_METHOD))
                .as("no class in api or engine should create or borrow platform threads")
                .because("every job runs on a virtual thread forked in the request's scope, so a request's threads"
                        + " end with the request");
    }

    static String[] restricted(Layout layout) {
        return new String[] {layout.apiTree(), layout.engineTree()};
    }

    /**
     * A call of the code unit {@code target} matches, or a reference to it: {@code Thread::new} as a
     * {@code ThreadFactory}, {@code Executors::newCachedThreadPool} or {@code Thread::sleep} runs the same code as the
     * call, but compiles to an {@code invokedynamic} that ArchUnit imports as a reference, which
     * {@code callMethodWhere} and {@code callConstructorWhere} never see.
     */
    static DescribedPredicate<JavaAccess<?>> callOrReference(DescribedPredicate<JavaCodeUnitAccess<?>> target) {
        return DescribedPredicate.describe(target.getDescription() + ", called or referenced",
                access -> access instanceof JavaCodeUnitAccess<?> codeUnit && target.test(codeUnit));
    }

    private static final DescribedPredicate<JavaCodeUnitAccess<?>> OBJECT_MONITOR_METHOD = DescribedPredicate.describe(
            "Object.wait(), wait(long), wait(long, int), notify() or notifyAll()", call -> {
                List<String> params = parameterNames(call);
                return switch (call.getName()) {
                    case "wait" -> params.isEmpty() || params.equals(List.of("long"))
                            || params.equals(List.of("long", "int"));
                    case "notify", "notifyAll" -> params.isEmpty();
                    default -> false;
                };
            });

    private static final DescribedPredicate<JavaCodeUnitAccess<?>> SLEEP = DescribedPredicate.describe(
            "Thread.sleep or TimeUnit.sleep", call -> call.getName().equals("sleep")
                    && (ownerIs(call, Thread.class) || ownerIs(call, TimeUnit.class)));

    private static final DescribedPredicate<JavaCodeUnitAccess<?>> PLATFORM_THREAD_CONSTRUCTOR =
            DescribedPredicate.describe(
                    "a constructor of Thread (or a subclass), ThreadPoolExecutor, ForkJoinPool, java.util.Timer or"
                            + " SubmissionPublisher without an Executor",
                    call -> call.getName().equals(JavaConstructor.CONSTRUCTOR_NAME)
                            && (ownerIs(call, Thread.class) || ownerIs(call, ThreadPoolExecutor.class)
                                    || ownerIs(call, ForkJoinPool.class) || ownerIs(call, Timer.class)
                                    // Without an Executor it delivers on the common pool (or a new platform thread
                                    // per item when the pool's parallelism is 1).
                                    || ownerIs(call, SubmissionPublisher.class)
                                            && call.getTarget().getRawParameterTypes().stream()
                                                    .noneMatch(p -> p.isAssignableTo(Executor.class))));

    private static final DescribedPredicate<JavaCodeUnitAccess<?>> PLATFORM_THREAD_METHOD = DescribedPredicate.describe(
            "Thread.ofPlatform, a platform-thread Executors factory, ForkJoinPool.commonPool, an *Async"
                    + " method without an Executor, delayedExecutor, defaultExecutor, orTimeout, completeOnTimeout, a"
                    + " parallel or StreamSupport stream, an Arrays.parallel* method, ForkJoinTask.fork or invokeAll,"
                    + " or a ConcurrentHashMap bulk operation with a parallelism threshold",
            call -> {
                String name = call.getName();
                if (ownerIs(call, Thread.class)) {
                    return name.equals("ofPlatform");
                }
                if (ownerIs(call, Executors.class)) {
                    return PLATFORM_POOL_FACTORIES.contains(name);
                }
                if (ownerIs(call, ForkJoinPool.class)) {
                    return name.equals("commonPool");
                }
                if (ownerIs(call, CompletableFuture.class) || ownerIs(call, CompletionStage.class)) {
                    // orTimeout and completeOnTimeout complete the future on the JDK's delay scheduler thread.
                    // defaultExecutor() hands out the common pool itself.
                    return name.equals("delayedExecutor") || name.equals("defaultExecutor")
                            || name.equals("orTimeout")
                            || name.equals("completeOnTimeout") || (name.endsWith("Async")
                            && call.getTarget().getRawParameterTypes().stream()
                                    .noneMatch(p -> p.isAssignableTo(Executor.class)));
                }
                if (ownerIs(call, java.util.Collection.class)) {
                    return name.equals("parallelStream");
                }
                if (ownerIs(call, java.util.stream.BaseStream.class)) {
                    return name.equals("parallel");
                }
                if (ownerIs(call, java.util.Arrays.class)) {
                    // parallelSort, parallelPrefix, parallelSetAll: split over the common pool's workers.
                    return name.startsWith("parallel");
                }
                if (ownerIs(call, StreamSupport.class)) {
                    // Every method takes a "parallel" flag, an argument a call rule cannot read: api and engine
                    // use none, so all are refused rather than let stream(spliterator, true) through.
                    return true;
                }
                if (ownerIs(call, ForkJoinTask.class)) {
                    // Outside a pool, fork() (and invokeAll, which forks) runs the task on the common pool.
                    return name.equals("fork") || name.equals("invokeAll");
                }
                if (ownerIs(call, ConcurrentHashMap.class)) {
                    // The bulk operations taking a parallelismThreshold first run on the common pool above it.
                    List<String> params = parameterNames(call);
                    return !params.isEmpty() && params.get(0).equals("long");
                }
                return false;
            });

    private static boolean ownerIs(JavaCodeUnitAccess<?> call, Class<?> type) {
        return call.getTargetOwner().isAssignableTo(type);
    }

    private static List<String> parameterNames(JavaCodeUnitAccess<?> call) {
        return call.getTarget().getRawParameterTypes().stream().map(JavaClass::getName).toList();
    }
}
