package dev.orderly.multihost;

import dev.orderly.multihost.Network.Host;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The processes of one run on the {@link Network}'s hosts: a tier2 on each tier2 host (optionally one behind a
 * delaying proxy on its host), then the tier1. {@link #close()} ends every one of them, whatever state a fault left it
 * in (killed, frozen, cut off), and brings every link back up. Not thread-safe: one test thread drives it.
 */
final class Fleet implements AutoCloseable {

    /** How long a JVM may take to say it listens on a loaded two-core machine. */
    static final Duration START_TIMEOUT = Duration.ofSeconds(60);
    static final String READY = "listening on ";

    private final Network network;
    private final Deployment deployment;
    private final HostProcess[] tier2 = new HostProcess[Network.TIER2.size()];
    private final List<HostProcess> others = new ArrayList<>();
    private final List<HostProcess> retired = new ArrayList<>();
    private HostProcess tier1;

    private Fleet(Network network, Deployment deployment) {
        this.network = network;
        this.deployment = deployment;
    }

    /**
     * Starts a tier2 on every tier2 host and waits until each listens.
     *
     * @param slowHost the index of a host whose link is slowed by {@code delayMs} each way, or -1 for none: its
     *     tier2 listens on the host's loopback and a delaying proxy takes its place on the host's address
     */
    static Fleet start(Network network, Deployment deployment, int slowHost, int delayMs)
            throws IOException, InterruptedException {
        Fleet fleet = new Fleet(network, deployment);
        try {
            for (int i = 0; i < fleet.tier2.length; i++) {
                fleet.tier2[i] = fleet.launchTier2(i, i == slowHost ? "127.0.0.1" : Network.TIER2.get(i).address());
            }
            if (slowHost >= 0) {
                Host h = Network.TIER2.get(slowHost);
                HostProcess proxy = HostProcess.start("proxy-" + slowHost, h.namespace(),
                        deployment.delayingProxy(h.address() + ":" + Deployment.TIER2_PORT,
                                "127.0.0.1:" + Deployment.TIER2_PORT, delayMs), Deployment.environment(),
                        deployment.logs());
                fleet.others.add(proxy);
            }
            for (HostProcess p : fleet.all()) {
                p.awaitLine(l -> l.startsWith(READY), START_TIMEOUT, "'" + READY + "...'");
            }
            return fleet;
        } catch (IOException | InterruptedException | RuntimeException e) {
            // The start's own failure is what the report needs: one of the close keeps it, as suppressed.
            try {
                fleet.close();
            } catch (IOException | InterruptedException | RuntimeException closing) {
                e.addSuppressed(closing);
            }
            throw e;
        }
    }

    private HostProcess launchTier2(int i, String listenOn) throws IOException {
        return HostProcess.start("tier2-" + i + (retired.isEmpty() ? "" : "-" + retired.size()),
                Network.TIER2.get(i).namespace(), deployment.tier2(listenOn, Deployment.TIER2_PORT),
                Deployment.environment(), deployment.logs());
    }

    /** Starts the tier1 host's request; returns its process, whose lines the test reads. */
    HostProcess startTier1(String requestId) throws IOException {
        tier1 = HostProcess.start("tier1", Network.TIER1.namespace(), deployment.tier1(requestId),
                Deployment.environment(), deployment.logs());
        return tier1;
    }

    /** The tier2 process on host {@code i}. */
    HostProcess tier2(int i) {
        return tier2[i];
    }

    /**
     * Restarts host {@code i}'s tier2 on the same address and port: SIGTERM (it drains), then a new process, which
     * this waits for until it listens.
     */
    void restart(int i) throws IOException, InterruptedException {
        HostProcess old = tier2[i];
        old.terminate();
        old.awaitExit(Duration.ofSeconds(30));
        retired.add(old);
        tier2[i] = launchTier2(i, Network.TIER2.get(i).address());
        tier2[i].awaitLine(l -> l.startsWith(READY), START_TIMEOUT, "'" + READY + "...' after the restart");
    }

    /** Cuts or restores host {@code i}'s link. */
    Network network() {
        return network;
    }

    private List<HostProcess> all() {
        List<HostProcess> all = new ArrayList<>();
        for (HostProcess p : tier2) {
            if (p != null) {
                all.add(p);
            }
        }
        all.addAll(others);
        return all;
    }

    /** Ends every process of the run (SIGKILL reaches a frozen one too) and brings every link back. */
    @Override
    public void close() throws IOException, InterruptedException {
        List<HostProcess> every = all();
        every.addAll(retired);
        if (tier1 != null) {
            every.add(tier1);
        }
        // Each one whatever the others do: a process that will not close, or a link that will not come back, must not
        // leave the rest running or down for the next test. The first failure is thrown, the others suppressed in it.
        Exception first = null;
        boolean interrupted = false;
        for (HostProcess p : every) {
            try {
                p.close();
            } catch (InterruptedException e) {
                interrupted = true;
                first = keep(first, e);
            } catch (RuntimeException e) {
                first = keep(first, e);
            }
        }
        for (Host h : Network.hosts()) {
            try {
                network.restore(h);
            } catch (IOException | RuntimeException e) {
                first = keep(first, e);
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        if (first instanceof IOException e) {
            throw e;
        }
        if (first instanceof InterruptedException e) {
            throw e;
        }
        if (first instanceof RuntimeException e) {
            throw e;
        }
    }

    private static Exception keep(Exception first, Exception next) {
        if (first == null) {
            return next;
        }
        first.addSuppressed(next);
        return first;
    }
}
