package dev.orderly.archtests.violations.sim;

import java.util.concurrent.StructuredTaskScope;

/** Bad: StructuredTaskScope outside the engine, even when it is the only class that uses it. */
public final class ScopeInTheSimulator {
    public void run() throws InterruptedException {
        try (var scope = StructuredTaskScope.open()) {
            scope.fork(() -> "job");
            scope.join();
        }
    }
}
