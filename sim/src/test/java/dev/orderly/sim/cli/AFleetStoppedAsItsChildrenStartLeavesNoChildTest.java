package dev.orderly.sim.cli;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Regression: {@code orderly fleet} stopped by Ctrl-C or a SIGTERM while its tier2 processes (or its S3Proxy) were
 * starting left them running for good. The shutdown hook stopped only a fleet that had finished starting (it is
 * recorded once every child has said {@code listening on}), so children still starting were never stopped; the
 * command's JVM halted and they went on listening, orphaned.
 *
 * <p>Runs the command in a JVM of its own and sends it a SIGTERM as soon as its first child exists, long before that
 * child (a JVM too) can listen.
 */
@Timeout(180)
class AFleetStoppedAsItsChildrenStartLeavesNoChildTest {

    @TempDir
    Path tmp;

    @Test
    void aSigtermWhileTier2ProcessesStartStopsThem() throws Exception {
        // --plaintext: with TLS a child still starting may die by itself once the hook deletes its certificate.
        sigtermAsChildrenStart("starting 2 tier2 processes", "--plaintext", "--instances=2");
    }

    @Test
    void aSigtermWhileS3ProxyStartsStopsIt() throws Exception {
        sigtermAsChildrenStart("starting S3Proxy", "--store=s3", "--instances=1");
    }

    private void sigtermAsChildrenStart(String startingLine, String... options) throws Exception {
        String java = ProcessHandle.current().info().command().orElseThrow();
        List<String> command = new ArrayList<>(List.of(java, "--enable-preview",
                "--enable-native-access=ALL-UNNAMED", "-Djava.io.tmpdir=" + tmp, "-cp",
                System.getProperty("java.class.path"), OrderlyCommand.class.getName(), "fleet", "--tenants=1",
                "--segments=4", "-o", tmp.resolve("timeline.svg").toString()));
        command.addAll(List.of(options));
        Process fleet = new ProcessBuilder(command).redirectErrorStream(true).start();
        List<ProcessHandle> children = new ArrayList<>();
        try {
            StringBuilder said = new StringBuilder();
            try (BufferedReader out = new BufferedReader(
                    new InputStreamReader(fleet.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line = out.readLine(); line != null; line = out.readLine()) {
                    said.append(line).append('\n');
                    if (line.contains(startingLine)) {
                        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(5))
                                .until(() -> fleet.children().findAny().isPresent());
                        children.addAll(fleet.children().toList());
                        fleet.destroy(); // SIGTERM, as a Ctrl-C's SIGINT: the shutdown hooks run
                        break;
                    }
                }
            }
            assertTrue(fleet.waitFor(60, TimeUnit.SECONDS), "the command did not end after its SIGTERM: " + said);
            await("the command's children to end after its SIGTERM").atMost(Duration.ofSeconds(60))
                    .until(() -> children.stream().noneMatch(ProcessHandle::isAlive));
            assertEquals(List.of(), children.stream().filter(ProcessHandle::isAlive).toList(),
                    "children left running; the command said: " + said);
        } finally {
            children.forEach(ProcessHandle::destroyForcibly);
            fleet.destroyForcibly();
            fleet.waitFor(30, TimeUnit.SECONDS);
        }
    }
}
