package dev.orderly.archtests.violations.engine;

import java.util.concurrent.StructuredTaskScope;

/** Bad next to {@link SoleScopeOwner}: a second engine class using StructuredTaskScope. */
public final class SecondScopeOwner {
    public String run() throws InterruptedException {
        try (var scope = StructuredTaskScope.open(StructuredTaskScope.Joiner.<String>awaitAllSuccessfulOrThrow())) {
            var task = scope.fork(() -> "job");
            scope.join();
            return task.get();
        }
    }
}
