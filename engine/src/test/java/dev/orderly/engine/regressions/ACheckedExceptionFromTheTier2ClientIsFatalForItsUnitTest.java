package dev.orderly.engine.regressions;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orderly.api.Job;
import dev.orderly.api.JobKey;
import dev.orderly.api.Request;
import dev.orderly.api.RequestFailedException;
import dev.orderly.api.RequestListener;
import dev.orderly.api.RequestPlan;
import dev.orderly.api.Tier2Call;
import dev.orderly.api.Tier2Client;
import dev.orderly.api.Tier2Exception;
import dev.orderly.engine.Fixtures;
import dev.orderly.engine.InMemoryOutputStore;
import dev.orderly.engine.Orderly;
import java.io.IOException;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Regression: a {@code Tier2Client} or {@code Tier2Call} written in Kotlin (or with {@code @SneakyThrows}) may throw a
 * checked exception it does not declare, an {@code IOException} from its socket, say. The engine counted only a
 * {@code RuntimeException} as FATAL: an {@code IOException} escaped the job, and the request failed as
 * "request r failed: java.io.IOException: connection reset", naming no unit ({@code key()} empty), and a job whose
 * {@code await} threw it after {@code onAdmitted} never heard its end ({@code onFailed}). It now fails the request as a
 * {@code RuntimeException} does: "segment 0 stage 0 failed fatally on attempt 1, giving up: ...", the unit named.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class ACheckedExceptionFromTheTier2ClientIsFatalForItsUnitTest {

    @ParameterizedTest(name = "thrown from await={0}")
    @ValueSource(booleans = {true, false})
    void anUndeclaredIOExceptionFailsTheRequestNamingTheUnit(boolean fromAwait) {
        RequestPlan plan = new RequestPlan(0, 1, 1, 1);
        IOException reset = new IOException("connection reset");
        Tier2Client tier2 = job -> {
            if (!fromAwait) {
                ACheckedExceptionFromTheTier2ClientIsFatalForItsUnitTest.<RuntimeException>sneaky(reset);
            }
            return new Tier2Call() {
                @Override
                public void await() {
                    ACheckedExceptionFromTheTier2ClientIsFatalForItsUnitTest.<RuntimeException>sneaky(reset);
                }
            };
        };
        List<String> events = new CopyOnWriteArrayList<>();
        RequestListener listener = new RequestListener() {
            @Override
            public void onAdmitted(Job job) {
                events.add("admitted " + job.key());
            }

            @Override
            public void onFailed(Job job, Tier2Exception cause) {
                events.add("failed " + job.key() + " " + cause.kind());
            }
        };

        RequestFailedException e = assertThrows(RequestFailedException.class, () -> Orderly.engine(Fixtures.fast())
                .run(Request.of(plan, tier2, new InMemoryOutputStore(), (segment, output) -> { })
                        .withListener(listener)));

        JobKey unit = new JobKey(0, 0);
        assertEquals(Optional.of(unit), e.key(), e.getMessage());
        assertTrue(e.getMessage().startsWith(unit + " failed fatally on attempt 1, giving up"), e.getMessage());
        assertInstanceOf(Tier2Exception.class, e.getCause());
        assertEquals(reset, e.getCause().getCause());
        assertEquals(fromAwait ? List.of("admitted " + unit, "failed " + unit + " FATAL")
                : List.of("failed " + unit + " FATAL"), events);
    }

    @SuppressWarnings("unchecked")
    private static <E extends Throwable> void sneaky(Throwable e) throws E {
        throw (E) e;
    }
}
