package dev.orderly.archtests.violations.engine.internal;

/** Stands in for a class of the engine's internal package. */
public final class InternalDetail {
    public int value() {
        return 42;
    }
}
