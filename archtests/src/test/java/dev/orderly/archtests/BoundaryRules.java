package dev.orderly.archtests;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.lang.ArchRule;

/**
 * The module boundaries: what each module may depend on (api on the JDK only; engine on api, SLF4J and the JDK).
 */
final class BoundaryRules {

    /** Where {@code @GuardedBy} lives: its annotations are read by the compiler only. */
    static final String GUARDED_BY_PACKAGE = "com.google.errorprone.annotations.concurrent";

    private BoundaryRules() {
    }

    /**
     * The api is what an embedder compiles against, so it must bring nothing along but the JDK: its classes depend
     * only on {@code java..} and on each other (not on the engine, not on SLF4J, not on {@code javax..} or
     * {@code jdk..}).
     */
    static ArchRule apiUsesOnlyTheJdk(Layout layout) {
        return classes().that().resideInAPackage(layout.apiTree())
                .should().onlyDependOnClassesThat().resideInAnyPackage("java..", layout.apiTree())
                .as("api classes should depend only on the JDK (java..) and on the api itself")
                .because("embedders compile against the api and it must bring nothing else along");
    }

    /**
     * The engine depends on the api, SLF4J and the JDK only (its {@code java..} packages and the flight recorder's
     * {@code jdk.jfr}, for the engine's JFR events): never on the simulator, a test library, a metrics library, or a
     * second logging framework. The one exception is compile-time only: Error Prone's concurrency annotations
     * ({@code com.google.errorprone.annotations.concurrent}, for {@code @GuardedBy}), which stay in the class files
     * for the compiler's check but are not needed at run time (a provided dependency); no other Error Prone package.
     */
    static ArchRule engineUsesOnlyTheApiSlf4jAndTheJdk(Layout layout) {
        return classes().that().resideInAPackage(layout.engineTree())
                .should().onlyDependOnClassesThat()
                .resideInAnyPackage("java..", "jdk.jfr..", "org.slf4j..", GUARDED_BY_PACKAGE, layout.apiTree(),
                        layout.engineTree())
                .as("engine classes should depend only on the JDK (java.., jdk.jfr..), SLF4J, the api and the engine"
                        + " itself (and, at compile time, @GuardedBy)")
                .because("the engine's dependencies are the api, SLF4J and the JDK only");
    }


    /**
     * Nothing outside the engine touches the engine's internal package; the simulator and embedders use
     * {@code dev.orderly.engine} (the only exported engine package) and the api.
     */
    static ArchRule nothingOutsideTheEngineTouchesItsInternals(Layout layout) {
        return noClasses().that().resideOutsideOfPackage(layout.engineTree())
                .should().dependOnClassesThat().resideInAPackage(layout.engineInternalTree())
                .as("no class outside the engine should depend on " + layout.engineInternal())
                .because("only " + layout.engine() + " is exported; its internals may change at any time");
    }

    /**
     * At most one top-level class in the whole code base (its nested, inner and anonymous classes count as part of
     * it) touches {@code java.util.concurrent.StructuredTaskScope} or one of its nested types, and that class is in
     * the engine: the request scope. The rule does not name the class, so it holds whatever the request scope is
     * called.
     */
    static ArchRule atMostOneEngineClassTouchesStructuredTaskScope(Layout layout) {
        return classes().should(new SingleStructuredTaskScopeOwner(layout.engineTree()))
                .because("StructuredTaskScope is a preview API that changes between JDK releases, so it must"
                        + " live in one engine class, the request scope, compiled apart for 25 with preview");
    }

    /**
     * Metrics live in their own module ({@code orderly-micrometer}), which listens through the api's
     * {@code RequestListener}: an embedder who does not want Micrometer never gets it through the api or the engine.
     */
    static ArchRule apiAndEngineUseNoMicrometer(Layout layout) {
        return noClasses().that().resideInAnyPackage(layout.apiTree(), layout.engineTree())
                .should().dependOnClassesThat().resideInAPackage("io.micrometer..")
                .as("no api or engine class should depend on Micrometer (io.micrometer..)")
                .because("metrics are the orderly-micrometer module's job, built on RequestListener");
    }
}
