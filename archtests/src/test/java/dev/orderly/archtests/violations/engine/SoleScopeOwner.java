package dev.orderly.archtests.violations.engine;

import java.util.concurrent.StructuredTaskScope;
import java.util.concurrent.StructuredTaskScope.Subtask;

/**
 * Good on its own: the one engine class that owns StructuredTaskScope, with a nested Joiner (which counts as part of
 * it). Together with {@link SecondScopeOwner} it makes two owners, which the rule rejects.
 */
public final class SoleScopeOwner {

    /** Tells the owner of the first failure. */
    public static final class FirstFailure implements StructuredTaskScope.Joiner<Object, Void> {
        @Override
        public boolean onComplete(Subtask<?> subtask) {
            return subtask.state() == Subtask.State.FAILED;
        }

        @Override
        public Void result() {
            return null;
        }
    }

    public void run() throws InterruptedException {
        try (var scope = StructuredTaskScope.open(new FirstFailure())) {
            scope.fork(() -> "job");
            scope.join();
        }
    }
}
