package dev.orderly.archtests;

/**
 * Where the modules (docs/ARCHITECTURE.md, "Modules") live. The rules take a layout instead of naming packages
 * themselves, so that exactly the same rule runs against the production code ({@link #ORDERLY}) and against the
 * deliberately bad classes of the test sources ({@link #VIOLATIONS}), which mirror the production packages under
 * {@code dev.orderly.archtests.violations}.
 *
 * @param api the package of the public API (JDK only)
 * @param engine the package of the engine
 * @param engineInternal the engine's internal package, which nothing outside the engine may touch
 */
record Layout(String api, String engine, String engineInternal) {

    /** The real code base. */
    static final Layout ORDERLY = new Layout("dev.orderly.api", "dev.orderly.engine", "dev.orderly.engine.internal");

    /** The bad (and good) examples kept in the archtests test sources to show each rule can fail. */
    static final Layout VIOLATIONS = new Layout(
            "dev.orderly.archtests.violations.api",
            "dev.orderly.archtests.violations.engine",
            "dev.orderly.archtests.violations.engine.internal");

    /** The API package and its sub-packages, in ArchUnit's package notation. */
    String apiTree() {
        return api + "..";
    }

    /** The engine package and its sub-packages (the internal package included). */
    String engineTree() {
        return engine + "..";
    }

    /** The internal package and its sub-packages. */
    String engineInternalTree() {
        return engineInternal + "..";
    }
}
