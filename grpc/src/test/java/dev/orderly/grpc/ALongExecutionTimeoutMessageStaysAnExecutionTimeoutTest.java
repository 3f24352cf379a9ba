package dev.orderly.grpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orderly.api.Job;
import dev.orderly.api.JobKey;
import dev.orderly.api.Tier2Call;
import dev.orderly.api.Tier2Exception;
import dev.orderly.api.Tier2Exception.Kind;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Timeout;

/**
 * Regression: a worker's execution timeout travels as the status's description, in the call's trailers; a long
 * message (about 1,100 Japanese characters, or 20,000 ASCII ones, once percent-encoded over the client's 8 KiB of
 * metadata) made the client's HTTP/2 layer fail the stream, and the timeout came back as RETRYABLE "INTERNAL http2
 * exception": counted against {@code maxFailures}, not {@code maxExecutionTimeouts}, and its words lost. The tier2
 * now cuts a description to what trailers carry, and says so.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ALongExecutionTimeoutMessageStaysAnExecutionTimeoutTest {

    @ParameterizedTest
    @ValueSource(strings = {"実行時間の上限を超えました。", "execution limit reached; "})
    void aLongExecutionTimeoutMessageIsCutNotTurnedIntoAnotherKind(String words) throws Exception {
        String message = words.repeat(20_000 / words.length());
        Tier2Server server = Tier2Server.builder().drainGrace(Duration.ZERO).worker((job, work) -> {
            throw Tier2Exception.executionTimeout(message);
        }).build().start();
        GrpcTier2Client client = GrpcTier2Client.builder().addresses(List.of("127.0.0.1:" + server.port())).build();
        try (Tier2Call call = client.dial(new Job("r", new JobKey(0, 0), 1))) {
            Tier2Exception e = assertThrows(Tier2Exception.class, call::await);
            assertEquals(Kind.EXECUTION_TIMEOUT, e.kind(), e.getMessage());
            assertTrue(e.getMessage().contains("DEADLINE_EXCEEDED " + words + words), e.getMessage());
            assertTrue(e.getMessage().endsWith(" bytes in all)"), e.getMessage());
        } finally {
            client.close();
            server.close();
        }
    }
}
