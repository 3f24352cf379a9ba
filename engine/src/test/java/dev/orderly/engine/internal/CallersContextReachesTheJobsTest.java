package dev.orderly.engine.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orderly.api.EngineConfig;
import dev.orderly.api.Request;
import dev.orderly.api.RequestPlan;
import dev.orderly.api.Tier2Client;
import dev.orderly.engine.InMemoryOutputStore;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * What reaches a request's jobs from the thread that called {@code run} is the same whether that thread is a platform
 * thread (whose request is owned by a virtual thread the scope starts) or a virtual one (which owns its request
 * itself): its inheritable thread locals, and, with the structured scope, its scoped values. Every thread the engine
 * made for the request was told to the observer and had ended when {@code run} returned.
 */
@Timeout(value = 20, unit = TimeUnit.SECONDS)
class CallersContextReachesTheJobsTest {

    private static final ScopedValue<String> SCOPED = ScopedValue.newInstance();
    private static final InheritableThreadLocal<String> INHERITED = new InheritableThreadLocal<>();

    /** What the jobs of one request saw: each job's scoped value and inheritable thread local, or "unbound". */
    private static Set<String> seenByJobs(boolean virtualCaller) throws Exception {
        Set<String> seen = ConcurrentHashMap.newKeySet();
        List<Thread> made = new ArrayList<>();
        InMemoryOutputStore outputs = new InMemoryOutputStore();
        Tier2Client tier2 = job -> {
            seen.add("scoped=" + (SCOPED.isBound() ? SCOPED.get() : "unbound"));
            seen.add("inherited=" + (INHERITED.get() == null ? "unbound" : INHERITED.get()));
            outputs.write(job.key().segment(), new byte[] {1});
            return () -> { };
        };
        OrderlyEngine engine = new OrderlyEngine(EngineConfig.defaults(), made::add);
        Request request = Request.of(new RequestPlan(0, 6, 1, 3), tier2, outputs, (segment, output) -> { });
        CompletableFuture<Integer> delivered = new CompletableFuture<>();
        Thread.Builder caller = virtualCaller ? Thread.ofVirtual() : Thread.ofPlatform();
        Thread thread = caller.start(() -> {
            INHERITED.set("caller's");
            try {
                delivered.complete(ScopedValue.where(SCOPED, "caller's").call(
                        () -> (int) engine.run(request).segmentsDelivered()));
            } catch (Throwable t) {
                delivered.completeExceptionally(t);
            }
        });
        assertEquals(6, delivered.get(10, TimeUnit.SECONDS));
        thread.join(5_000);
        // The observer is told on the caller's and the owner's threads, each before the thread it is told of starts.
        assertTrue(!made.isEmpty(), "the observer was told of the request's threads");
        made.forEach(t -> assertTrue(!t.isAlive(), t + " outlived the request"));
        return seen;
    }

    @Test
    void aPlatformCallersContextReachesTheJobsAsAVirtualCallersDoes() throws Exception {
        Set<String> fromPlatform = seenByJobs(false);
        Set<String> fromVirtual = seenByJobs(true);

        assertEquals(fromVirtual, fromPlatform, "what the jobs saw from a platform caller and from a virtual one");
        String scoped = RequestScopes.chosen().name().equals(RequestScopes.STRUCTURED) ? "caller's" : "unbound";
        assertEquals(Set.of("scoped=" + scoped, "inherited=caller's"), fromPlatform,
                "scope " + RequestScopes.chosen().name());
    }
}
