package dev.orderly.sim.cli;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Regression: a tier2 process started just as {@code orderly fleet} (or {@code orderly fleet bench}) was stopped by
 * Ctrl-C or a SIGTERM outlived the command. The fleet's shutdown hook ended the children it could see at one moment;
 * the command's own thread went on starting the next ones until the JVM halted, and those were never stopped.
 * {@code orderly fleet bench} had no hook at all: every child it had started outlived it.
 *
 * <p>Runs the command in a JVM of its own, with its temporary directory in this test's, and sends it a SIGTERM as soon
 * as its first child exists, while it is still starting the others. After the command ends, no process may be left
 * whose command line names this test's directory: children re-parented when the command's JVM halted are found too.
 */
@Timeout(240)
class AChildStartedAsTheCommandStopsDoesNotOutliveItTest {

    @TempDir
    Path tmp;

    @Test
    void aSigtermAsTheFleetStartsItsChildrenLeavesNoneRunning() throws Exception {
        sigtermAsChildrenStart("starting 6 tier2 processes", "fleet", "--tenants=1", "--segments=4", "--plaintext",
                "--instances=6", "-o", tmp.resolve("timeline.svg").toString());
    }

    @Test
    void aSigtermAsTheFleetBenchStartsItsChildrenLeavesNoneRunning() throws Exception {
        sigtermAsChildrenStart("orderly fleet bench: 6 tier2 processes", "fleet", "bench", "--instances=6",
                "--seconds=1", "--rounds=1");
    }

    private void sigtermAsChildrenStart(String startingLine, String... args) throws Exception {
        assumeTrue(Files.isDirectory(Path.of("/proc/self")), "finds re-parented children by their command line in /proc");
        String java = ProcessHandle.current().info().command().orElseThrow();
        List<String> command = new ArrayList<>(List.of(java, "--enable-preview",
                "--enable-native-access=ALL-UNNAMED", "-Djava.io.tmpdir=" + tmp, "-cp",
                System.getProperty("java.class.path"), OrderlyCommand.class.getName()));
        command.addAll(List.of(args));
        Process cmd = new ProcessBuilder(command).redirectErrorStream(true).start();
        try {
            StringBuilder said = new StringBuilder();
            try (BufferedReader out = new BufferedReader(
                    new InputStreamReader(cmd.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line = out.readLine(); line != null; line = out.readLine()) {
                    said.append(line).append('\n');
                    if (line.contains(startingLine)) {
                        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(1))
                                .until(() -> cmd.children().findAny().isPresent());
                        cmd.destroy(); // SIGTERM, as a Ctrl-C's SIGINT: the shutdown hooks run
                        break;
                    }
                }
            }
            assertTrue(cmd.waitFor(60, TimeUnit.SECONDS), "the command did not end after its SIGTERM: " + said);
            await("every child of the command to end after its SIGTERM").atMost(Duration.ofSeconds(60))
                    .pollInterval(Duration.ofMillis(100))
                    .until(() -> left().isEmpty());
            assertEquals(List.of(), left(), "children left running; the command said: " + said);
        } finally {
            cmd.destroyForcibly();
            cmd.waitFor(30, TimeUnit.SECONDS);
            left().forEach(ProcessHandle::destroyForcibly);
        }
    }

    /**
     * Every live process, but this test's JVM, whose command line names this test's directory. Read from
     * {@code /proc}: {@code ProcessHandle.Info} cuts a command line as long as a test class path.
     */
    private List<ProcessHandle> left() {
        String mark = tmp.toString();
        return ProcessHandle.allProcesses()
                .filter(p -> p.pid() != ProcessHandle.current().pid())
                .filter(p -> commandLine(p).contains(mark))
                .filter(ProcessHandle::isAlive)
                .toList();
    }

    private static String commandLine(ProcessHandle p) {
        try {
            return new String(Files.readAllBytes(Path.of("/proc", Long.toString(p.pid()), "cmdline")),
                    StandardCharsets.UTF_8);
        } catch (IOException | UncheckedIOException gone) {
            return ""; // ended as we looked
        }
    }
}
