package dev.orderly.testing.net;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.net.Socket;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Timeout;

/**
 * Regression: {@code TcpProxy.close()} says that once it returns every thread of the proxy has ended. A connection
 * that reset itself (its target reset it, or the connect to the target failed) took itself out of the proxy's links
 * at once, while its threads (the pump that saw the reset, the pumps it interrupted) still ran: a close() right after
 * found no link to wait for and returned with them alive. A race, so repeated: before the fix 2 of the 30 repetitions
 * failed in one run on a loaded 2-vCPU machine, 6 of 60 in another.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class ACloseWaitsForTheThreadsOfALinkThatResetItselfTest {

    private static final int LINKS = 128;

    @RepeatedTest(30)
    void aCloseRightAfterTheTargetResetEveryConnectionReturnsOnlyOnceTheirThreadsEnded() throws Exception {
        try (ProxiedLinks links = new ProxiedLinks(LINKS)) {
            TcpProxy proxy = links.proxy();
            // The target resets every connection: each link sees it and resets itself, not through the proxy.
            for (Socket s : links.servers()) {
                s.setSoLinger(true, 0);
                s.close();
            }
            // Spun, not polled: the window between a link leaving the proxy's count and its threads' end is what the
            // close must cover, and a poll's interval would outlast it. Bounded either way.
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (proxy.connections() > 0 && System.nanoTime() < deadline) {
                Thread.onSpinWait();
            }
            assertEquals(0, proxy.connections(), "the links did not see their target's reset in 10 s");
            proxy.close();
            assertEquals(List.of(), links.aliveThreads(), "threads of the proxy alive after close() returned");
        }
    }
}
