package dev.orderly.engine;

import dev.orderly.api.Engine;
import dev.orderly.api.Request;
import dev.orderly.api.RequestResult;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/** Runs {@code engine.run(request)} on a thread of its own, so a test can watch it and interrupt it. */
public final class Background {

    private final CompletableFuture<RequestResult> outcome = new CompletableFuture<>();
    private final Thread caller;

    public Background(Engine engine, Request request) {
        caller = Thread.ofVirtual().name("test-caller").start(() -> {
            try {
                outcome.complete(engine.run(request));
            } catch (Throwable t) {
                outcome.completeExceptionally(t);
            }
        });
    }

    public void interrupt() {
        caller.interrupt();
    }

    public boolean isDone() {
        return outcome.isDone();
    }

    /** The result, or what run threw (unwrapped). */
    public RequestResult get(long seconds) throws Throwable {
        try {
            return outcome.get(seconds, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            throw e.getCause();
        } catch (TimeoutException e) {
            throw new AssertionError("run did not end within " + seconds + " s", e);
        }
    }

    /** What run threw; fails if it returned. */
    public Throwable failure(long seconds) {
        try {
            RequestResult result = get(seconds);
            throw new AssertionError("run returned " + result + " instead of throwing");
        } catch (AssertionError e) {
            throw e;
        } catch (Throwable t) {
            return t;
        }
    }
}
