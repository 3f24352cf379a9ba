package dev.orderly.grpc;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.orderly.api.Tier2Client;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The tier2 drops a stage's output write below the last only when it is told the request's stage count, and the
 * engine told it through a second {@code Tier2Client} method that a client wrapped in a lambda (the usual way to
 * count or log dials) can not forward: the tier2 was told nothing, and a lower stage's output, written beside the
 * last stage's job of its segment, replaced the output the client was handed. The count rides on the job now.
 */
@Timeout(60)
class AClientWrappedInALambdaStillTellsTheTier2TheLastStageTest {

    @Test
    void theClientGetsTheLastStagesOutputThroughAWrappingLambda() throws Exception {
        List<String> delivered = ALowerStagesWriteNeverReplacesTheLastStagesOutputTest.delivered(
                client -> job -> client.dial(job));
        assertEquals(List.of("segment 0 stage 1", "segment 1 stage 1"), delivered);
    }
}
