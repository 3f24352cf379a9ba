package dev.orderly.archtests;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;

/**
 * The production classes the architecture rules check: the main (not test) classes of every Orderly module on the
 * archtests class path. Today that is {@code api} and {@code engine}; {@code sim} is picked up as soon as it is added
 * as a dependency of this module, with no change here. The archtests' own classes (the rules and the deliberately bad
 * examples) are never part of it.
 */
final class ProductionClasses {

    /** The packages imported; a package with no classes on the class path simply contributes none. */
    static final String[] PACKAGES = {"dev.orderly.api", "dev.orderly.engine", "dev.orderly.sim"};

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
