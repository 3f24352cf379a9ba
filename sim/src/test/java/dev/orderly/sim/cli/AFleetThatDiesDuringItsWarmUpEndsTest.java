package dev.orderly.sim.cli;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Regression: {@code orderly fleet} watched for its whole fleet dying only once the measured run had begun. Every
 * tier2 process dying during the warm-up request before it (killed, out of memory) left the warm-up's engine
 * redialing a gone fleet for ever, and the command never ended.
 *
 * <p>The warm-up's jobs take a minute each here, so the children are killed while it runs: once both listen, read
 * from {@code /proc} (a socket in the LISTEN state among a child's open files).
 */
@Timeout(240)
class AFleetThatDiesDuringItsWarmUpEndsTest {

    @TempDir
    Path dir;

    @Test
    void theCommandEndsWhenEveryTier2ProcessDiesDuringTheWarmUp() throws Exception {
        assumeTrue(Files.isReadable(Path.of("/proc/net/tcp")), "reads listening sockets from /proc");
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CompletableFuture<Integer> code = new CompletableFuture<>();
        Thread command = Thread.ofPlatform().name("orderly-fleet").start(() -> code.complete(OrderlyCommand.execute(
                new String[] {"fleet", "--plaintext", "--tenants=1", "--segments=20", "--workers=4",
                        "--instances=2", "--slots=2", "--admission=refuse", "--job-duration=10m",
                        "--job-spread=0", "--time-scale=10", "--output=" + dir.resolve("t.svg")},
                new PrintWriter(out, true), new PrintWriter(err, true), false)));
        try {
            await().atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(50)).until(() -> {
                List<ProcessHandle> children = ProcessHandle.current().children().toList();
                return children.size() == 2 && children.stream().allMatch(AFleetThatDiesDuringItsWarmUpEndsTest::listens);
            });
            assertTrue(!out.toString().contains("  ordered "), "the measured run began: " + out);
            ProcessHandle.current().children().forEach(ProcessHandle::destroyForcibly);

            int exit = code.get(90, TimeUnit.SECONDS); // before the fix: a TimeoutException, the warm-up redialed on
            assertEquals(1, exit, out + "\n" + err);
            assertTrue(err.toString().contains("every tier2 process ended"), err.toString());
        } finally {
            if (!code.isDone()) {
                command.interrupt(); // cancels the run; the command stops its fleet
            }
            command.join(Duration.ofSeconds(60));
            ProcessHandle.current().children().forEach(ProcessHandle::destroyForcibly);
            // The command keeps its processes' logs when its fleet died: they are this test's to delete.
            Matcher kept = Pattern.compile("logs are kept under (\\S+)").matcher(err.toString());
            if (kept.find()) {
                try (Stream<Path> paths = Files.walk(Path.of(kept.group(1)))) {
                    paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
                }
            }
        }
    }

    /** Whether {@code p} has a TCP socket in the LISTEN state among its open files. */
    private static boolean listens(ProcessHandle p) {
        Set<String> inodes = new HashSet<>();
        try (DirectoryStream<Path> fds = Files.newDirectoryStream(Path.of("/proc", Long.toString(p.pid()), "fd"))) {
            for (Path fd : fds) {
                try {
                    String link = Files.readSymbolicLink(fd).toString();
                    if (link.startsWith("socket:[")) {
                        inodes.add(link.substring(8, link.length() - 1));
                    }
                } catch (IOException closed) {
                    // closed as we looked
                }
            }
            for (String table : List.of("/proc/net/tcp", "/proc/net/tcp6")) {
                Path t = Path.of(table);
                if (!Files.isReadable(t)) {
                    continue;
                }
                List<String> lines = Files.readAllLines(t);
                for (String line : lines.subList(1, lines.size())) {
                    String[] f = line.trim().split("\\s+");
                    if (f.length > 9 && f[3].equals("0A") && inodes.contains(f[9])) {
                        return true;
                    }
                }
            }
            return false;
        } catch (IOException gone) {
            return false;
        }
    }
}
