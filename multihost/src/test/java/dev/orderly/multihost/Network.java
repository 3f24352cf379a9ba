package dev.orderly.multihost;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * The hosts of the multi-host test, each a Linux network namespace with one veth link to a bridge that lives in a
 * namespace of its own: the machine's own network stack has no interface on the test's subnet and no route to it, so
 * nothing outside these namespaces can reach the hosts or be reached from them.
 *
 * <pre>
 *   orderly-mh-tier1 (10.77.0.10) ─┐
 *   orderly-mh-tier2-0 (.21) ──────┤
 *   orderly-mh-tier2-1 (.22) ──────┼── bridge mh-br0 in orderly-mh-bridge
 *   orderly-mh-tier2-2 (.23) ──────┤
 *   orderly-mh-s3 (10.77.0.30) ────┘
 * </pre>
 *
 * <p>Every name starts with {@link #PREFIX}: {@link #removeLeftovers()} deletes whatever an earlier run that was
 * killed left behind (its processes, namespaces and {@code /etc/netns} files), and {@link #close()} deletes what this
 * one made. The tier1's namespace gets a hosts file that resolves {@link #TIER2_NAME} to the three tier2 addresses
 * ({@code ip netns exec} mounts {@code /etc/netns/<name>/hosts} over {@code /etc/hosts}), and every namespace gets a
 * {@code resolv.conf} naming only its own loopback, so no name lookup leaves it. Not thread-safe: one test thread
 * builds, changes and closes it.
 *
 * <p>Two runs on one machine take turns ({@link NamespaceLock}): a network holds the lock from its creation to its
 * close, and the clean-up and the probe take it for their own steps, so the clean-up never touches a live run's hosts.
 */
final class Network implements AutoCloseable {

    /** The start of every namespace, link and file name this test makes. */
    static final String PREFIX = "orderly-mh-";
    /** The one name the tier1 dials; it resolves to every tier2 host. */
    static final String TIER2_NAME = "tier2.orderly.test";

    static final Host TIER1 = new Host(PREFIX + "tier1", "mh-tier1", "10.77.0.10");
    static final List<Host> TIER2 = List.of(
            new Host(PREFIX + "tier2-0", "mh-tier2-0", "10.77.0.21"),
            new Host(PREFIX + "tier2-1", "mh-tier2-1", "10.77.0.22"),
            new Host(PREFIX + "tier2-2", "mh-tier2-2", "10.77.0.23"));
    static final Host S3 = new Host(PREFIX + "s3", "mh-s3", "10.77.0.30");

    private static final String BRIDGE_NS = PREFIX + "bridge";
    private static final String BRIDGE = "mh-br0";
    private static final String PREFIX_LENGTH = "/24";
    private static final Path NETNS_ETC = Path.of("/etc/netns");

    /**
     * One host: its namespace, the name of its link's end on the bridge, and its address.
     *
     * @param namespace the network namespace
     * @param bridgePort the veth end in the bridge's namespace (15 characters at most, a kernel limit)
     * @param address its IPv4 address on the test subnet
     */
    record Host(String namespace, String bridgePort, String address) {
    }

    /** Every host, tier1 first. */
    static List<Host> hosts() {
        List<Host> all = new ArrayList<>();
        all.add(TIER1);
        all.addAll(TIER2);
        all.add(S3);
        return all;
    }

    /**
     * Why namespaces can not be made here, or empty if they can (root, Linux, {@code ip} present, a namespace can be
     * added and deleted).
     */
    static Optional<String> whyUnavailable() {
        if (!System.getProperty("os.name", "").toLowerCase().contains("linux")) {
            return Optional.of("network namespaces need Linux; this is " + System.getProperty("os.name"));
        }
        try {
            Object uid = Files.getAttribute(Path.of("/proc/self"), "unix:uid");
            if (!Integer.valueOf(0).equals(uid)) {
                return Optional.of("network namespaces need root; this test runs as uid " + uid);
            }
        } catch (IOException | UnsupportedOperationException e) {
            return Optional.of("can not tell whether this is root: " + e.getMessage());
        }
        String probe = PREFIX + "probe";
        try {
            Commands.run("ip", "-V");
        } catch (IOException e) {
            return Optional.of("the 'ip' command (iproute2) is missing or broken: " + e.getMessage());
        }
        try (NamespaceLock.Hold hold = NamespaceLock.take()) {
            Commands.tryRun(List.of("ip", "netns", "del", probe));
            Commands.run("ip", "netns", "add", probe);
            Commands.run("ip", "netns", "del", probe);
        } catch (IOException e) {
            return Optional.of("ip netns add failed, or the lock between runs: " + e.getMessage());
        }
        return Optional.empty();
    }

    /** Removes what an earlier run left (see {@link #removeLeftovers()}), then builds every host and the bridge. */
    static Network create() throws IOException {
        NamespaceLock.Hold hold = NamespaceLock.take();
        try {
            removeLeftovers();
        } catch (IOException | RuntimeException e) {
            hold.close();
            throw e;
        }
        Network net = new Network(hold);
        try {
            net.build();
            return net;
        } catch (IOException | RuntimeException e) {
            // The build's own failure is what the report needs: one of the close keeps it, as suppressed.
            try {
                net.close();
            } catch (IOException | RuntimeException closing) {
                e.addSuppressed(closing);
            }
            throw e;
        }
    }

    private final NamespaceLock.Hold hold;

    private Network(NamespaceLock.Hold hold) {
        this.hold = hold;
    }

    private void build() throws IOException {
        Commands.run("ip", "netns", "add", BRIDGE_NS);
        Commands.run("ip", "-n", BRIDGE_NS, "link", "add", BRIDGE, "type", "bridge");
        Commands.run("ip", "-n", BRIDGE_NS, "link", "set", BRIDGE, "up");
        for (Host h : hosts()) {
            Commands.run("ip", "netns", "add", h.namespace());
            // Both ends are created straight inside their namespaces: no interface appears in the machine's own.
            Commands.run("ip", "link", "add", h.bridgePort(), "netns", BRIDGE_NS, "type", "veth",
                    "peer", "name", "eth0", "netns", h.namespace());
            Commands.run("ip", "-n", BRIDGE_NS, "link", "set", h.bridgePort(), "master", BRIDGE, "up");
            Commands.run("ip", "-n", h.namespace(), "link", "set", "lo", "up");
            Commands.run("ip", "-n", h.namespace(), "addr", "add", h.address() + PREFIX_LENGTH, "dev", "eth0");
            Commands.run("ip", "-n", h.namespace(), "link", "set", "eth0", "up");
            Path etc = NETNS_ETC.resolve(h.namespace());
            Files.createDirectories(etc);
            StringBuilder hostsFile = new StringBuilder("127.0.0.1 localhost\n");
            if (h.equals(TIER1)) {
                for (Host t : TIER2) {
                    hostsFile.append(t.address()).append(' ').append(TIER2_NAME).append('\n');
                }
            }
            hostsFile.append(S3.address()).append(" s3.orderly.test\n");
            Files.writeString(etc.resolve("hosts"), hostsFile.toString(), StandardCharsets.UTF_8);
            Files.writeString(etc.resolve("resolv.conf"), "nameserver 127.0.0.1\noptions timeout:1 attempts:1\n",
                    StandardCharsets.UTF_8);
        }
    }

    /** Cuts {@code host}'s link: its end on the bridge goes down, and every packet to or from it is lost. */
    void cut(Host host) throws IOException {
        Commands.run("ip", "-n", BRIDGE_NS, "link", "set", host.bridgePort(), "down");
    }

    /** Brings {@code host}'s link back. */
    void restore(Host host) throws IOException {
        Commands.run("ip", "-n", BRIDGE_NS, "link", "set", host.bridgePort(), "up");
    }

    /** Deletes every namespace and file this run made and ends every process still in them. Idempotent. */
    @Override
    public void close() throws IOException {
        try {
            removeLeftovers();
        } finally {
            hold.close();
        }
    }

    /** The test's namespaces that exist now. */
    static List<String> namespaces() throws IOException {
        List<String> ours = new ArrayList<>();
        for (String line : Commands.run("ip", "netns", "list").split("\n")) {
            String name = line.strip().split("\\s+")[0];
            if (name.startsWith(PREFIX)) {
                ours.add(name);
            }
        }
        return ours;
    }

    /**
     * Ends (SIGKILL) every process in a namespace named {@link #PREFIX}..., deletes those namespaces (their links
     * go with them) and their {@code /etc/netns} directories. Safe to call when there is nothing to remove. Waits
     * while another run holds the {@link NamespaceLock}: its namespaces are alive, not left.
     */
    static void removeLeftovers() throws IOException {
        try (NamespaceLock.Hold hold = NamespaceLock.take()) {
            removeEveryNamespace();
        }
    }

    private static void removeEveryNamespace() throws IOException {
        IOException first = null;
        for (String ns : namespaces()) {
            try {
                killAll(ns);
                Commands.run("ip", "netns", "del", ns);
            } catch (IOException e) {
                first = first == null ? e : first;
            }
        }
        if (Files.isDirectory(NETNS_ETC)) {
            try (DirectoryStream<Path> dirs = Files.newDirectoryStream(NETNS_ETC, PREFIX + "*")) {
                for (Path d : dirs) {
                    try (DirectoryStream<Path> files = Files.newDirectoryStream(d)) {
                        for (Path f : files) {
                            Files.deleteIfExists(f);
                        }
                    }
                    Files.deleteIfExists(d);
                }
            }
            try (DirectoryStream<Path> rest = Files.newDirectoryStream(NETNS_ETC)) {
                if (!rest.iterator().hasNext()) {
                    Files.deleteIfExists(NETNS_ETC);
                }
            }
        }
        if (first != null) {
            throw first;
        }
    }

    /** SIGKILLs every process in namespace {@code ns} and waits (bounded) until they are gone. */
    private static void killAll(String ns) throws IOException {
        List<Long> pids = pidsIn(ns);
        for (long pid : pids) {
            // A process of a frozen host must be killable too: SIGKILL works on a stopped process.
            ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
        }
        for (long pid : pids) {
            Optional<ProcessHandle> h = ProcessHandle.of(pid);
            if (h.isPresent()) {
                try {
                    h.get().onExit().get(10, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IOException("interrupted while waiting for process " + pid + " in " + ns, e);
                } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
                    throw new IOException("process " + pid + " in " + ns + " did not end within 10 s of SIGKILL");
                }
            }
        }
    }

    /** The processes in namespace {@code ns}. */
    static List<Long> pidsIn(String ns) throws IOException {
        String out = Commands.run("ip", "netns", "pids", ns).strip();
        if (out.isEmpty()) {
            return List.of();
        }
        return Arrays.stream(out.split("\\s+")).map(Long::parseLong).toList();
    }
}
