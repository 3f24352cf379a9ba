package dev.orderly.sim.tier2;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code orderly fleet}'s and {@code fleet bench}'s shutdown hooks call {@link ChildProcesses#stopAll()} and then
 * delete the work directory the children read and write; the gate's own hook calls it at the same time. Whichever
 * call comes second must also return only once every child has ended, as the javadoc says, or the directory (TLS key,
 * token, logs) is deleted under live children.
 */
@Timeout(120)
class ASecondStopAllReturnsOnlyOnceEveryChildHasEndedTest {

    @Test
    void aStopAllThatComesWhileAnotherDrainsWaitsForTheChildrenToEnd() throws Exception {
        ChildProcesses gate = new ChildProcesses();
        // A child that takes a few seconds to end on SIGTERM (a JVM running its own shutdown, say).
        Process child = gate.start(new ProcessBuilder("sh", "-c",
                "trap 'sleep 5; exit 0' TERM; echo ready; while :; do sleep 1; done"));
        Thread first = null;
        try {
            try (BufferedReader out = new BufferedReader(
                    new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
                assertEquals("ready", out.readLine()); // its trap is set
                first = Thread.ofPlatform().name("the gate's own hook").start(gate::stopAll);
                await().atMost(Duration.ofSeconds(30)).until(gate::isStopping);

                gate.stopAll(); // the command's hook, which deletes the work directory next

                assertFalse(child.isAlive(), "stopAll returned while a child it stops is still alive");
            }
        } finally {
            child.destroyForcibly();
            child.waitFor(30, TimeUnit.SECONDS);
            if (first != null) {
                first.join(TimeUnit.SECONDS.toMillis(30));
            }
        }
    }
}
