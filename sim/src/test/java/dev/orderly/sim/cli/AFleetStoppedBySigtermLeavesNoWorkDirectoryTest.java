package dev.orderly.sim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Regression: {@code orderly fleet} stopped by Ctrl-C or a SIGTERM stopped its tier2 processes (its shutdown hook)
 * but left its work directory, {@code orderly-fleet-*} in the temporary directory, with the run's TLS private key and
 * bearer token in it: only the command's normal end deleted it, and the JVM halts once its hooks are done. The hook
 * now deletes it too.
 *
 * <p>Runs the command in a JVM of its own, its temporary directory the test's, and sends it a SIGTERM as it starts
 * its first tier2 process.
 */
@Timeout(120)
class AFleetStoppedBySigtermLeavesNoWorkDirectoryTest {

    @TempDir
    Path tmp;

    @Test
    void aSigtermAsTheFleetStartsDeletesTheWorkDirectory() throws Exception {
        String java = ProcessHandle.current().info().command().orElseThrow();
        Process fleet = new ProcessBuilder(List.of(java, "--enable-preview", "-Djava.io.tmpdir=" + tmp, "-cp",
                System.getProperty("java.class.path"), OrderlyCommand.class.getName(), "fleet", "--instances=1",
                "--tenants=1", "--segments=4", "-o", tmp.resolve("timeline.svg").toString()))
                .redirectErrorStream(true).start();
        try {
            StringBuilder said = new StringBuilder();
            try (BufferedReader out = new BufferedReader(
                    new InputStreamReader(fleet.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line = out.readLine(); line != null; line = out.readLine()) {
                    said.append(line).append('\n');
                    if (line.contains("starting 1 tier2 processes")) {
                        assertEquals(1, workDirectories().size(), said.toString());
                        fleet.destroy(); // SIGTERM, as a Ctrl-C's SIGINT: the shutdown hooks run
                        break;
                    }
                }
            }
            assertTrue(fleet.waitFor(60, TimeUnit.SECONDS), "the command did not end after its SIGTERM: " + said);
            assertEquals(List.of(), workDirectories(), "left behind after a SIGTERM; the command said: " + said);
        } finally {
            fleet.descendants().forEach(ProcessHandle::destroyForcibly);
            fleet.destroyForcibly();
            fleet.waitFor(30, TimeUnit.SECONDS);
        }
    }

    private List<Path> workDirectories() throws Exception {
        try (Stream<Path> files = Files.list(tmp)) {
            return files.filter(p -> p.getFileName().toString().startsWith("orderly-fleet-")).toList();
        }
    }
}
