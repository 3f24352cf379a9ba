package dev.orderly.multihost;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * What a run killed with SIGKILL leaves behind (a namespace, its {@code /etc/netns} files, a process still running
 * in it) is removed by the next run before it builds anything.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class LeftoversTest {

    @Test
    void whatAKilledRunLeftIsRemovedByTheNext() throws Exception {
        Optional<String> why = Network.whyUnavailable();
        if (why.isPresent()) {
            System.out.println("[multihost] skipped: " + why.get());
        }
        assumeTrue(why.isEmpty(), () -> "multi-host leftovers test skipped: " + why.orElseThrow());
        String ns = Network.PREFIX + "stale";
        Path etc = Path.of("/etc/netns", ns);
        Process orphan = null;
        // The stale namespace is made under the lock between runs, or a live run's own clean-up could take it first.
        NamespaceLock.Hold turn = NamespaceLock.take();
        try {
            Commands.run("ip", "netns", "add", ns);
            Files.createDirectories(etc);
            Files.writeString(etc.resolve("hosts"), "10.77.0.99 stale.orderly.test\n");
            // A process that outlived its run: it must end with its namespace.
            orphan = new ProcessBuilder("ip", "netns", "exec", ns, "sleep", "300").start();
            long pid = orphan.pid();
            await("the stale process in " + ns).atMost(Duration.ofSeconds(10))
                    .until(() -> Network.pidsIn(ns).contains(pid));
            assertTrue(Network.namespaces().contains(ns), "the stale namespace exists before the clean-up");

            Network.removeLeftovers();

            assertFalse(Network.namespaces().contains(ns), "the stale namespace after the clean-up");
            assertTrue(orphan.waitFor(10, TimeUnit.SECONDS), "the stale process ended");
            assertFalse(Files.exists(etc), etc + " after the clean-up");
        } finally {
            if (orphan != null) {
                orphan.destroyForcibly();
                orphan.waitFor(10, TimeUnit.SECONDS);
            }
            Commands.tryRun(List.of("ip", "netns", "del", ns));
            if (Files.exists(etc.resolve("hosts"))) {
                Files.delete(etc.resolve("hosts"));
            }
            Files.deleteIfExists(etc);
            turn.close();
        }
    }
}
