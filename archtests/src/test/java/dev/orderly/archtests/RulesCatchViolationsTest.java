package dev.orderly.archtests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.EvaluationResult;
import dev.orderly.archtests.violations.api.ApiThatLogsThroughSlf4j;
import dev.orderly.archtests.violations.api.ApiThatTagsWithMicrometer;
import dev.orderly.archtests.violations.api.ApiThatUsesTheEngine;
import dev.orderly.archtests.violations.api.CleanApiRecord;
import dev.orderly.archtests.violations.engine.CleanEngineClass;
import dev.orderly.archtests.violations.engine.ConsoleOutput;
import dev.orderly.archtests.violations.engine.EngineJfrEvent;
import dev.orderly.archtests.violations.engine.EngineThatCountsWithMicrometer;
import dev.orderly.archtests.violations.engine.EngineThatUsesOtherErrorProneAnnotations;
import dev.orderly.archtests.violations.engine.EngineThatUsesTheSimulator;
import dev.orderly.archtests.violations.engine.MonitorMethods;
import dev.orderly.archtests.violations.engine.OtherLoggers;
import dev.orderly.archtests.violations.engine.PlatformThreads;
import dev.orderly.archtests.violations.engine.SecondScopeOwner;
import dev.orderly.archtests.violations.engine.Sleeps;
import dev.orderly.archtests.violations.engine.SoleScopeOwner;
import dev.orderly.archtests.violations.engine.SynchronizedBlock;
import dev.orderly.archtests.violations.engine.SynchronizedMethods;
import dev.orderly.archtests.violations.engine.internal.InternalDetail;
import dev.orderly.archtests.violations.outside.ReachesIntoEngineInternals;
import dev.orderly.archtests.violations.sim.ScopeInTheSimulator;
import dev.orderly.archtests.violations.sim.SimulatorThatSleeps;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Each rule of {@link ArchitectureTest}, built by the same factory but over {@link Layout#VIOLATIONS}, fails on a
 * class that breaks it (and names that class), and passes on a class that keeps it, so no rule passes merely because
 * it can not fail.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class RulesCatchViolationsTest {

    private static final Layout LAYOUT = Layout.VIOLATIONS;

    /** Every example, imported once; each test picks the few classes it needs (importing is the slow part). */
    private static final JavaClasses EXAMPLES =
            new ClassFileImporter().importPackages("dev.orderly.archtests.violations");

    private static EvaluationResult evaluate(ArchRule rule, Class<?>... classes) {
        Set<String> names = Arrays.stream(classes).map(Class::getName).collect(Collectors.toSet());
        JavaClasses picked = EXAMPLES.that(DescribedPredicate.describe("one of " + names,
                (JavaClass c) -> names.contains(c.getName())));
        assertEquals(names.size(), picked.size(), () -> "not all of " + names + " were imported");
        return rule.evaluate(picked);
    }

    private static void assertViolation(ArchRule rule, Class<?> bad, String expected, Class<?>... alsoImported) {
        Class<?>[] classes = new Class<?>[alsoImported.length + 1];
        classes[0] = bad;
        System.arraycopy(alsoImported, 0, classes, 1, alsoImported.length);
        EvaluationResult result = evaluate(rule, classes);
        assertTrue(result.hasViolation(), () -> "expected " + bad.getName() + " to break: " + rule.getDescription());
        List<String> details = result.getFailureReport().getDetails();
        assertTrue(details.stream().anyMatch(d -> d.contains(bad.getName()) && d.contains(expected)),
                () -> "expected a violation naming " + bad.getName() + " and '" + expected + "', got " + details);
    }

    private static void assertNoViolation(ArchRule rule, Class<?>... classes) {
        EvaluationResult result = evaluate(rule, classes);
        assertFalse(result.hasViolation(), () -> result.getFailureReport().toString());
    }

    // --- api uses only the JDK

    @Test
    void apiUsesOnlyTheJdkFailsWhenTheApiUsesTheEngine() {
        assertViolation(BoundaryRules.apiUsesOnlyTheJdk(LAYOUT), ApiThatUsesTheEngine.class,
                CleanEngineClass.class.getName());
    }

    @Test
    void apiUsesOnlyTheJdkFailsWhenTheApiUsesSlf4j() {
        assertViolation(BoundaryRules.apiUsesOnlyTheJdk(LAYOUT), ApiThatLogsThroughSlf4j.class, "org.slf4j.Logger");
    }

    @Test
    void apiUsesOnlyTheJdkPassesOnARecordUsingOnlyTheJdk() {
        assertNoViolation(BoundaryRules.apiUsesOnlyTheJdk(LAYOUT), CleanApiRecord.class);
    }

    // --- engine uses only api, SLF4J and the JDK

    @Test
    void engineDependenciesFailWhenTheEngineUsesTheSimulator() {
        assertViolation(BoundaryRules.engineUsesOnlyTheApiSlf4jAndTheJdk(LAYOUT), EngineThatUsesTheSimulator.class,
                SimulatorThatSleeps.class.getName());
    }

    @Test
    void engineDependenciesPassOnLocksVirtualThreadsSlf4jTheApiAndItsOwnInternals() {
        assertNoViolation(BoundaryRules.engineUsesOnlyTheApiSlf4jAndTheJdk(LAYOUT), CleanEngineClass.class);
    }

    @Test
    void engineDependenciesFailOnErrorProneAnnotationsOtherThanGuardedBy() {
        assertViolation(BoundaryRules.engineUsesOnlyTheApiSlf4jAndTheJdk(LAYOUT),
                EngineThatUsesOtherErrorProneAnnotations.class, "com.google.errorprone.annotations.CheckReturnValue");
    }

    @Test
    void engineDependenciesPassOnJfrEvents() {
        assertNoViolation(BoundaryRules.engineUsesOnlyTheApiSlf4jAndTheJdk(LAYOUT), EngineJfrEvent.class);
    }

    @Test
    void engineDependenciesFailWhenTheEngineUsesMicrometer() {
        assertViolation(BoundaryRules.engineUsesOnlyTheApiSlf4jAndTheJdk(LAYOUT), EngineThatCountsWithMicrometer.class,
                "io.micrometer.core.instrument.Counter");
    }

    // --- no Micrometer in the api or the engine

    @Test
    void micrometerRuleFailsWhenTheEngineUsesMicrometer() {
        assertViolation(BoundaryRules.apiAndEngineUseNoMicrometer(LAYOUT), EngineThatCountsWithMicrometer.class,
                "io.micrometer.core.instrument.Counter");
    }

    @Test
    void micrometerRuleFailsWhenTheApiUsesMicrometer() {
        assertViolation(BoundaryRules.apiAndEngineUseNoMicrometer(LAYOUT), ApiThatTagsWithMicrometer.class,
                "io.micrometer.core.instrument.Tag");
    }

    @Test
    void micrometerRulePassesOnTheCleanApiAndEngineClasses() {
        assertNoViolation(BoundaryRules.apiAndEngineUseNoMicrometer(LAYOUT), CleanApiRecord.class,
                CleanEngineClass.class, EngineJfrEvent.class);
    }

    // --- nothing outside the engine touches its internals

    @Test
    void internalsRuleFailsWhenAClassOutsideTheEngineUsesAnInternalClass() {
        assertViolation(BoundaryRules.nothingOutsideTheEngineTouchesItsInternals(LAYOUT),
                ReachesIntoEngineInternals.class, InternalDetail.class.getName(), InternalDetail.class);
    }

    @Test
    void internalsRulePassesWhenOnlyTheEngineUsesItsInternals() {
        assertNoViolation(BoundaryRules.nothingOutsideTheEngineTouchesItsInternals(LAYOUT),
                CleanEngineClass.class, InternalDetail.class, CleanApiRecord.class);
    }

    // --- StructuredTaskScope lives in one engine class

    @Test
    void scopeRuleFailsWhenTwoClassesTouchStructuredTaskScope() {
        assertViolation(BoundaryRules.atMostOneEngineClassTouchesStructuredTaskScope(LAYOUT),
                SecondScopeOwner.class, "2 classes touch java.util.concurrent.StructuredTaskScope",
                SoleScopeOwner.class, SoleScopeOwner.FirstFailure.class, CleanEngineClass.class);
    }

    @Test
    void scopeRuleFailsWhenTheOnlyOwnerIsOutsideTheEngine() {
        assertViolation(BoundaryRules.atMostOneEngineClassTouchesStructuredTaskScope(LAYOUT),
                ScopeInTheSimulator.class, "outside " + LAYOUT.engineTree(), CleanEngineClass.class);
    }

    @Test
    void scopeRulePassesOnOneEngineClassWithItsNestedJoiner() {
        assertNoViolation(BoundaryRules.atMostOneEngineClassTouchesStructuredTaskScope(LAYOUT),
                SoleScopeOwner.class, SoleScopeOwner.FirstFailure.class, CleanEngineClass.class,
                SimulatorThatSleeps.class);
    }

    // --- no synchronized

    @ParameterizedTest
    @ValueSource(classes = {SynchronizedMethods.OnTheInstance.class, SynchronizedMethods.OnTheClass.class})
    void synchronizedMethodRuleFailsOnASynchronizedMethod(Class<?> bad) {
        assertViolation(ConcurrencyRules.noSynchronizedMethods(LAYOUT), bad, "increment()");
    }

    @Test
    void synchronizedBlockRuleFailsOnASynchronizedBlockAndNamesMethodAndLine() {
        assertViolation(ConcurrencyRules.noSynchronizedBlocks(LAYOUT), SynchronizedBlock.class,
                ".increment()> enters a monitor (synchronized block) in (SynchronizedBlock.java:9)");
    }

    @Test
    void synchronizedMethodsAreNotMistakenForBlocksNorBlocksForMethods() {
        // The two rules see different things; each one alone would let the other's pattern through.
        assertNoViolation(ConcurrencyRules.noSynchronizedBlocks(LAYOUT), SynchronizedMethods.OnTheInstance.class);
        assertNoViolation(ConcurrencyRules.noSynchronizedMethods(LAYOUT), SynchronizedBlock.class);
    }

    @Test
    void synchronizedRulesPassOnReentrantLockAndCondition() {
        assertNoViolation(ConcurrencyRules.noSynchronizedMethods(LAYOUT), CleanEngineClass.class);
        assertNoViolation(ConcurrencyRules.noSynchronizedBlocks(LAYOUT), CleanEngineClass.class,
                CleanApiRecord.class, InternalDetail.class);
    }

    // --- no Object.wait / notify

    @ParameterizedTest
    @ValueSource(classes = {MonitorMethods.WaitOnALock.class, MonitorMethods.WaitOnThis.class,
            MonitorMethods.WaitWithNanos.class, MonitorMethods.Notify.class, MonitorMethods.NotifyAll.class})
    void monitorMethodRuleFailsOnWaitNotifyAndNotifyAllWhateverTheReceiver(Class<?> bad) {
        assertViolation(ConcurrencyRules.noObjectMonitorMethods(LAYOUT), bad, "calls method");
    }

    @Test
    void monitorMethodRulePassesOnConditionAwaitAndSignal() {
        assertNoViolation(ConcurrencyRules.noObjectMonitorMethods(LAYOUT), CleanEngineClass.class);
    }

    // --- no Thread.sleep

    @ParameterizedTest
    @ValueSource(classes = {Sleeps.ThreadSleep.class, Sleeps.ThreadSleepDuration.class, Sleeps.TimeUnitSleep.class})
    void sleepRuleFailsOnThreadSleepAndTimeUnitSleep(Class<?> bad) {
        assertViolation(ConcurrencyRules.noThreadSleep(LAYOUT), bad, ".sleep(");
    }

    @Test
    void sleepRulePassesOnATimedConditionWait() {
        assertNoViolation(ConcurrencyRules.noThreadSleep(LAYOUT), CleanEngineClass.class);
    }

    // --- no platform threads

    @ParameterizedTest
    @ValueSource(classes = {PlatformThreads.NewThread.class, PlatformThreads.ThreadSubclass.class,
            PlatformThreads.OfPlatform.class, PlatformThreads.FixedThreadPool.class,
            PlatformThreads.CachedThreadPool.class, PlatformThreads.SingleThreadExecutor.class,
            PlatformThreads.ScheduledThreadPool.class, PlatformThreads.NewThreadPoolExecutor.class,
            PlatformThreads.NewScheduledThreadPoolExecutor.class, PlatformThreads.NewForkJoinPool.class,
            PlatformThreads.CommonPool.class, PlatformThreads.SupplyAsyncOnTheCommonPool.class,
            PlatformThreads.ThenApplyAsyncOnTheCommonPool.class, PlatformThreads.ParallelStream.class,
            PlatformThreads.NewTimer.class})
    void platformThreadRuleFailsOnEveryWayToGetAPlatformThread(Class<?> bad) {
        assertViolation(ConcurrencyRules.noPlatformThreads(LAYOUT), bad, "calls ");
    }

    @Test
    void platformThreadRulePassesOnVirtualThreadsAndAnExplicitVirtualExecutor() {
        assertNoViolation(ConcurrencyRules.noPlatformThreads(LAYOUT), CleanEngineClass.class);
    }

    // --- no console output, SLF4J only

    @ParameterizedTest
    @ValueSource(classes = {ConsoleOutput.SystemOut.class, ConsoleOutput.SystemErr.class,
            ConsoleOutput.PrintStackTrace.class})
    void consoleRuleFailsOnSystemOutSystemErrAndPrintStackTrace(Class<?> bad) {
        assertViolation(OutputRules.noSystemOutOrErr(LAYOUT), bad, bad.getName());
    }

    @ParameterizedTest
    @ValueSource(classes = {OtherLoggers.JavaUtilLogging.class, OtherLoggers.SystemLogger.class})
    void loggingRuleFailsOnJavaUtilLoggingAndSystemLogger(Class<?> bad) {
        assertViolation(OutputRules.logOnlyThroughSlf4j(LAYOUT), bad, "ogger");
    }

    @Test
    void outputRulesPassOnSlf4jLogging() {
        assertNoViolation(OutputRules.noSystemOutOrErr(LAYOUT), CleanEngineClass.class);
        assertNoViolation(OutputRules.logOnlyThroughSlf4j(LAYOUT), CleanEngineClass.class);
    }

    // --- the simulator is not restricted

    @Test
    void theSimulatorMayPrintSleepSynchronizeAndUsePlatformThreads() {
        List<Function<Layout, ArchRule>> apiAndEngineOnly = List.of(
                ConcurrencyRules::noSynchronizedMethods, ConcurrencyRules::noSynchronizedBlocks,
                ConcurrencyRules::noObjectMonitorMethods, ConcurrencyRules::noThreadSleep,
                ConcurrencyRules::noPlatformThreads, OutputRules::noSystemOutOrErr, OutputRules::logOnlyThroughSlf4j);
        for (Function<Layout, ArchRule> rule : apiAndEngineOnly) {
            // CleanEngineClass is imported too, so the rule has something in scope and does not fail for being empty.
            assertNoViolation(rule.apply(LAYOUT), SimulatorThatSleeps.class, CleanEngineClass.class);
        }
    }
}
