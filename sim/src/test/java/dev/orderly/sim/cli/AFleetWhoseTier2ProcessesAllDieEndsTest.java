package dev.orderly.sim.cli;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Regression: when every tier2 process of {@code orderly fleet} died mid-run (killed, out of memory), the command
 * never ended: the engine redials an unreachable fleet for ever (as it should: a real fleet may come back), and the
 * command did not watch its own children, so it printed {@code delivered 32/60 … refusals 15461} every two seconds
 * for good (with {@code -q}, nothing at all). It now ends with exit 1, saying that every tier2 process ended.
 */
@Timeout(240)
class AFleetWhoseTier2ProcessesAllDieEndsTest {

    @TempDir
    Path dir;

    @Test
    void theCommandEndsWhenEveryTier2ProcessHasDied() throws Exception {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CompletableFuture<Integer> code = new CompletableFuture<>();
        Thread command = Thread.ofPlatform().name("orderly-fleet").start(() -> code.complete(OrderlyCommand.execute(
                new String[] {"fleet", "--plaintext", "--tenants=1", "--segments=200", "--workers=4",
                        "--instances=2", "--slots=2", "--admission=refuse", "--job-duration=2s",
                        "--output=" + dir.resolve("t.svg")},
                new PrintWriter(out, true), new PrintWriter(err, true), false)));
        try {
            // A progress line: the fleet listens, the warm-up is over and the measured run is under way.
            await().atMost(Duration.ofSeconds(120)).until(() -> out.toString().contains("  ordered "));
            List<ProcessHandle> children = ProcessHandle.current().children().toList();
            assertEquals(2, children.size(), out.toString());
            children.forEach(ProcessHandle::destroyForcibly); // both tier2 processes die, as by the OOM killer

            int exit = code.get(90, TimeUnit.SECONDS); // before the fix: a TimeoutException, the command went on
            assertEquals(1, exit, out + "\n" + err);
            assertTrue(err.toString().contains("every tier2 process ended"), err.toString());
            assertTrue(ProcessHandle.current().children().noneMatch(ProcessHandle::isAlive),
                    "a tier2 process outlived the command");
        } finally {
            if (!code.isDone()) {
                command.interrupt(); // cancels the run; the command stops its fleet
            }
            command.join(Duration.ofSeconds(60));
            ProcessHandle.current().children().forEach(ProcessHandle::destroyForcibly);
            Matcher kept = Pattern.compile("logs are kept under (\\S+)").matcher(err.toString());
            if (kept.find()) {
                try (Stream<Path> paths = Files.walk(Path.of(kept.group(1)))) {
                    paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
                }
            }
        }
    }
}
