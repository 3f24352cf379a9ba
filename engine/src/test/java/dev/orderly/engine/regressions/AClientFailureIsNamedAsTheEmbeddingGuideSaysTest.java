package dev.orderly.engine.regressions;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orderly.api.JobKey;
import dev.orderly.api.Request;
import dev.orderly.api.RequestFailedException;
import dev.orderly.api.RequestPlan;
import dev.orderly.engine.Background;
import dev.orderly.engine.Fixtures;
import dev.orderly.engine.InMemoryOutputStore;
import dev.orderly.engine.Orderly;
import dev.orderly.testing.Script;
import dev.orderly.testing.ScriptedTier2;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Found in review (a doc defect): docs/guide/embedding.md's retry table said a client that throws fails the request
 * with "the client failed on segment S: …" and {@code key()} empty. The engine names the segment's last stage, as
 * {@code SegmentConsumer}'s javadoc and engine-rules.md say: the message starts "segment S stage K: the client failed
 * on segment S: " and {@code key()} is {@code (S, K)}. This pins the behaviour the corrected row states.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class AClientFailureIsNamedAsTheEmbeddingGuideSaysTest {

    @Test
    void aClientThatThrowsIsNamedBySegmentAndLastStage() {
        RequestPlan plan = new RequestPlan(0, 3, 2, 2);
        InMemoryOutputStore store = new InMemoryOutputStore();
        ScriptedTier2 tier2 = new ScriptedTier2(plan, store::write, job -> Script.succeed());
        IllegalStateException thrown = new IllegalStateException("disk full");

        Throwable t = new Background(Orderly.engine(Fixtures.fast()),
                Request.of(plan, tier2, store, (segment, output) -> {
                    if (segment == 1) {
                        throw thrown;
                    }
                })).failure(10);

        RequestFailedException e = assertInstanceOf(RequestFailedException.class, t);
        assertEquals(Optional.of(new JobKey(1, 1)), e.key(), e.getMessage());
        assertTrue(e.getMessage().startsWith("segment 1 stage 1: the client failed on segment 1: "), e.getMessage());
        assertEquals(thrown, e.getCause());
    }
}
