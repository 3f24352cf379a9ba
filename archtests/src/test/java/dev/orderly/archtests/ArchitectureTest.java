package dev.orderly.archtests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import dev.orderly.api.JobKey;
import dev.orderly.engine.LaunchQueue;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The module boundaries (api depends on the JDK only, engine on api and SLF4J, nothing outside the engine on its
 * internals, one request scope on StructuredTaskScope, no monitors, sleeps, platform threads or console output in
 * api and engine), checked on the production classes of every Orderly module on the class path.
 * {@link RulesCatchViolationsTest} shows that each of these rules fails on a class that breaks it.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class ArchitectureTest {

    private static final Layout LAYOUT = Layout.ORDERLY;

    private static JavaClasses production() {
        return ProductionClasses.get();
    }

    @Test
    void theRulesSeeTheApiAndTheEngineButNoneOfTheArchtestsOwnClasses() {
        JavaClasses classes = production();
        assertTrue(classes.contain(JobKey.class), "api classes imported");
        assertTrue(classes.contain(LaunchQueue.class), "engine classes imported");
        for (JavaClass c : classes) {
            assertTrue(c.getPackageName().startsWith("dev.orderly.")
                            && !c.getPackageName().startsWith("dev.orderly.archtests"),
                    () -> "not a production class: " + c.getName());
        }
    }

    @Test
    void apiUsesOnlyTheJdk() {
        BoundaryRules.apiUsesOnlyTheJdk(LAYOUT).check(production());
    }

    @Test
    void engineUsesOnlyTheApiSlf4jAndTheJdk() {
        BoundaryRules.engineUsesOnlyTheApiSlf4jAndTheJdk(LAYOUT).check(production());
    }

    @Test
    void apiAndEngineUseNoMicrometer() {
        BoundaryRules.apiAndEngineUseNoMicrometer(LAYOUT).check(production());
    }

    @Test
    void nothingOutsideTheEngineTouchesItsInternals() {
        BoundaryRules.nothingOutsideTheEngineTouchesItsInternals(LAYOUT).check(production());
    }

    @Test
    void atMostOneEngineClassTouchesStructuredTaskScope() {
        BoundaryRules.atMostOneEngineClassTouchesStructuredTaskScope(LAYOUT).check(production());
    }

    @Test
    void exactlyOneClassTouchesStructuredTaskScopeAndItIsTheRequestScope() {
        Set<String> owners = new TreeSet<>();
        for (JavaClass c : production()) {
            boolean touches = c.getDirectDependenciesFromSelf().stream()
                    .map(d -> d.getTargetClass().getName())
                    .anyMatch(n -> n.equals(SingleStructuredTaskScopeOwner.SCOPE)
                            || n.startsWith(SingleStructuredTaskScopeOwner.SCOPE + "$"));
            if (touches) {
                JavaClass outer = c;
                while (outer.getEnclosingClass().isPresent()) {
                    outer = outer.getEnclosingClass().get();
                }
                owners.add(outer.getName());
            }
        }
        assertEquals(Set.of("dev.orderly.engine.internal.StructuredRequestScope"), owners);
    }

    @Test
    void noSynchronizedMethodsInApiOrEngine() {
        ConcurrencyRules.noSynchronizedMethods(LAYOUT).check(production());
    }

    @Test
    void noSynchronizedBlocksInApiOrEngine() {
        ConcurrencyRules.noSynchronizedBlocks(LAYOUT).check(production());
    }

    @Test
    void noObjectWaitOrNotifyInApiOrEngine() {
        ConcurrencyRules.noObjectMonitorMethods(LAYOUT).check(production());
    }

    @Test
    void noThreadSleepInApiOrEngine() {
        ConcurrencyRules.noThreadSleep(LAYOUT).check(production());
    }

    @Test
    void noPlatformThreadsInApiOrEngine() {
        ConcurrencyRules.noPlatformThreads(LAYOUT).check(production());
    }

    @Test
    void noSystemOutOrErrInApiOrEngine() {
        OutputRules.noSystemOutOrErr(LAYOUT).check(production());
    }

    @Test
    void apiAndEngineLogOnlyThroughSlf4j() {
        OutputRules.logOnlyThroughSlf4j(LAYOUT).check(production());
    }
}
