package dev.orderly.archtests.violations.api;

import dev.orderly.archtests.violations.engine.CleanEngineClass;

/** Bad: an api type that reaches into the engine. */
public final class ApiThatUsesTheEngine {
    private final CleanEngineClass engine = new CleanEngineClass();

    public CleanEngineClass engine() {
        return engine;
    }
}
