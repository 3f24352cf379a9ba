package dev.orderly.engine.regressions;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import dev.orderly.api.RequestFailedException;
import dev.orderly.api.RequestListener;
import dev.orderly.api.RequestPlan;
import dev.orderly.api.RequestResult;
import dev.orderly.api.Request;
import dev.orderly.api.Tier2Client;
import dev.orderly.engine.Background;
import dev.orderly.engine.Fixtures;
import dev.orderly.engine.InMemoryOutputStore;
import dev.orderly.engine.Orderly;
import dev.orderly.engine.RecordingClient;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Regression: a request stopped by a {@code VirtualMachineError} (a {@code StackOverflowError} from a client that
 * recursed too deep, say) ended with no end event: {@code run} threw the error, as it should, but the listener heard
 * none of {@code onRequestDone}, {@code onRequestFailed} and {@code onRequestCancelled}, though exactly one ends every
 * request that started. A listener that keeps state per request (the Micrometer gauges of queued and dialing jobs)
 * kept it for good. It now hears {@code onRequestFailed}, with the error as the cause, before {@code run} throws it.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class ARequestStoppedByAVirtualMachineErrorHearsItsEndTest {

    @Test
    void theListenerHearsTheRequestFailedAndRunThrowsTheErrorItself() {
        StackOverflowError error = new StackOverflowError("a client that recursed too deep");
        Tier2Client tier2 = job -> {
            throw error;
        };
        List<String> ends = new CopyOnWriteArrayList<>();
        List<Throwable> causes = new CopyOnWriteArrayList<>();
        List<RequestResult> results = new CopyOnWriteArrayList<>();
        RequestListener listener = new RequestListener() {
            @Override
            public void onRequestDone(RequestResult result) {
                ends.add("done");
            }

            @Override
            public void onRequestFailed(RequestResult soFar, RequestFailedException failure) {
                ends.add("failed");
                causes.add(failure.getCause());
                results.add(soFar);
                assertEquals(failure.partialResult().orElseThrow(), soFar);
            }

            @Override
            public void onRequestCancelled(RequestResult soFar) {
                ends.add("cancelled");
            }
        };

        Throwable thrown = new Background(Orderly.engine(Fixtures.fast()), Request.of(new RequestPlan(0, 4, 1, 2),
                tier2, new InMemoryOutputStore(), new RecordingClient()).withListener(listener)).failure(10);

        assertSame(error, thrown, "run throws the VM's error as itself");
        assertEquals(List.of("failed"), ends);
        assertSame(error, causes.get(0));
        assertEquals(0, results.get(0).segmentsDelivered());
    }
}
