package dev.orderly.archtests;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;

/**
 * The production classes the architecture rules check: the main (not test) classes of every Orderly module on the
 * archtests class path: {@code api} and {@code engine}, and {@code sim} with what it brings ({@code tier2},
 * {@code grpc}, {@code s3}, {@code micrometer}, {@code testing}), {@code bench} and the examples with main classes
 * ({@code embedding}, {@code prometheus}, {@code own-tier2-worker}). Each of those must be named here: a module left out
 * is a module "nothing outside the engine touches its internals" never looks at (tier2 depends on the engine and
 * would compile against its internals on the class path). The archtests' own classes (the rules and the
 * deliberately bad examples) are never part of it.
 */
final class ProductionClasses {

    /** The packages imported; a package with no classes on the class path simply contributes none. */
    static final String[] PACKAGES = {"dev.orderly.api", "dev.orderly.engine", "dev.orderly.sim", "dev.orderly.tier2",
            "dev.orderly.grpc", "dev.orderly.s3", "dev.orderly.micrometer", "dev.orderly.testing", "dev.orderly.bench",
            "dev.orderly.examples"};

    private static final ImportOption NOT_THE_ARCHTESTS_THEMSELVES =
            location -> !location.contains("/dev/orderly/archtests/");

    private static final JavaClasses CLASSES = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .withImportOption(NOT_THE_ARCHTESTS_THEMSELVES)
            .importPackages(PACKAGES);

    private ProductionClasses() {
    }

    /** The imported classes; imported once per test JVM, when first asked for (importing is the slow part). */
    static JavaClasses get() {
        return CLASSES;
    }
}
