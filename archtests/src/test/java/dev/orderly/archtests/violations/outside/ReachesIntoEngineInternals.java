package dev.orderly.archtests.violations.outside;

import dev.orderly.archtests.violations.engine.internal.InternalDetail;

/** Bad: a class outside the engine (a simulator, an embedder) that uses an engine-internal class. */
public final class ReachesIntoEngineInternals {
    public int peek() {
        return new InternalDetail().value();
    }
}
