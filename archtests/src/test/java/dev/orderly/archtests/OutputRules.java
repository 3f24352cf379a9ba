package dev.orderly.archtests;

import static com.tngtech.archunit.core.domain.JavaClass.Predicates.belongToAnyOf;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaCodeUnitAccess;
import com.tngtech.archunit.core.domain.JavaFieldAccess;
import com.tngtech.archunit.lang.ArchRule;
import java.io.FileDescriptor;

/**
 * What {@code api} and {@code engine} may write: nothing to the console, and logs through
 * SLF4J only. The simulator's command line prints for people and is not restricted.
 */
final class OutputRules {

    private OutputRules() {
    }

    /**
     * No {@code System.out}, no {@code System.err}, no {@code FileDescriptor.out} or {@code err} (the console without
     * the {@code System} field), and no {@code Throwable.printStackTrace()} or {@code Thread.dumpStack()} (both write
     * to {@code System.err}) in api or engine.
     */
    static ArchRule noSystemOutOrErr(Layout layout) {
        return noClasses().that().resideInAnyPackage(ConcurrencyRules.restricted(layout))
                .should().accessFieldWhere(SYSTEM_OUT_OR_ERR)
                // A reference too (errors.forEach(Throwable::printStackTrace), Thread::dumpStack): the same output.
                .orShould().accessTargetWhere(ConcurrencyRules.callOrReference(PRINT_STACK_TRACE))
                .as("no class in api or engine should use System.out, System.err, FileDescriptor.out/err,"
                        + " printStackTrace() or Thread.dumpStack()")
                .because("a library logs through SLF4J; the console belongs to the embedding application");
    }

    /** No {@code java.util.logging} and no {@code System.Logger} in api or engine: SLF4J is the one logging API. */
    static ArchRule logOnlyThroughSlf4j(Layout layout) {
        return noClasses().that().resideInAnyPackage(ConcurrencyRules.restricted(layout))
                .should().dependOnClassesThat(resideInAPackage("java.util.logging..")
                        .or(belongToAnyOf(System.Logger.class)))
                .as("no class in api or engine should use java.util.logging or System.Logger")
                .because("api and engine log through SLF4J only, so the embedder chooses where logs go");
    }

    private static final DescribedPredicate<JavaFieldAccess> SYSTEM_OUT_OR_ERR = DescribedPredicate.describe(
            "System.out, System.err, FileDescriptor.out or FileDescriptor.err",
            access -> (access.getTargetOwner().isEquivalentTo(System.class)
                    || access.getTargetOwner().isEquivalentTo(FileDescriptor.class))
                    && (access.getName().equals("out") || access.getName().equals("err")));

    private static final DescribedPredicate<JavaCodeUnitAccess<?>> PRINT_STACK_TRACE = DescribedPredicate.describe(
            "Throwable.printStackTrace() or Thread.dumpStack()",
            call -> call.getTarget().getRawParameterTypes().isEmpty()
                    && ((call.getName().equals("printStackTrace")
                            && call.getTargetOwner().isAssignableTo(Throwable.class))
                    || (call.getName().equals("dumpStack") && call.getTargetOwner().isEquivalentTo(Thread.class))));
}
