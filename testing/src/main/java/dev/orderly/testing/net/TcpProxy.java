package dev.orderly.testing.net;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A TCP proxy for tests of slow, frozen and cut links, where the kernel offers no {@code netem}: it listens on one
 * address and forwards every connection it accepts to one target, byte for byte, both ways.
 *
 * <ul>
 *   <li>{@link #delay(Duration)}: every chunk of bytes reaches the other side that long after the proxy read it, in
 *       each direction (a round trip gains twice the delay). Chunks stay in order; throughput is not limited.
 *   <li>{@link #freeze()} / {@link #thaw()}: while frozen no byte moves either way, yet every connection stays open
 *       and new ones are still accepted, exactly what a peer stopped by {@code SIGSTOP} (or a dead link) looks like:
 *       the other side learns of it only by its own timeouts or keepalives.
 *   <li>{@link #cut()}: resets every open connection at once (new ones are accepted as before).
 *   <li>{@link #close()}: stops listening and resets every connection.
 * </ul>
 *
 * <p>In a test: {@code try (TcpProxy proxy = TcpProxy.start(new InetSocketAddress("127.0.0.1", serverPort))) {
 * dial(proxy.hostPort()); proxy.freeze(); ... }}. As a process (for a harness, e.g. inside a network namespace):
 * {@code java -cp orderly-testing.jar dev.orderly.testing.net.TcpProxy --listen=HOST:PORT --target=HOST:PORT
 * [--delay-ms=N]}; it prints {@code listening on HOST:PORT} once it accepts connections (port 0 picks a free one),
 * then takes the commands {@code freeze}, {@code thaw}, {@code cut} and {@code delay-ms=N}, one a line, on its
 * standard input, and stops on SIGTERM. A bad option is one line on standard error and exit status 2.
 *
 * <p>This class is thread-safe.
 */
public final class TcpProxy implements AutoCloseable {

    /*
     * Threads: one acceptor; per connection a reader and a writer per direction (Pump), platform daemon threads, so a
     * proxy never keeps a JVM alive. A reader waits while frozen before it hands a chunk on, so a frozen proxy holds
     * at most one chunk per direction and the sender's kernel buffers fill, as with a stopped peer.
     *
     * Invariants, all guarded by lock: delay >= 0; once closed is true it stays true and links is empty and stays
     * empty (a link accepted while closing is reset by register); every live Link is in links. thawed is signalled on
     * thaw, the only event that ends a wait in awaitForwarding; close ends one by the interrupt of its link's reset.
     */
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition thawed = lock.newCondition();
    private final Condition closedCondition = lock.newCondition();
    // Held by close() and cut() from start to end: a second close() at once (a shutdown hook beside main's finally),
    // or one after a cut(), found no link left to wait for and returned while the links' threads still ran.
    private final ReentrantLock closing = new ReentrantLock();
    private final ServerSocket listener;
    private final InetSocketAddress target;
    // Started by start(); close() waits for it to leave accept, which is when the JDK really closes the listener.
    private final Thread acceptor;
    // guarded by lock
    private Duration delay = Duration.ZERO;
    // guarded by lock
    private boolean frozen;
    // guarded by lock
    private boolean closed;
    // guarded by lock
    private final Set<Link> links = new HashSet<>();
    // guarded by lock: links that closed or reset themselves (no longer counted), whose threads may still run. close()
    // and cut() wait for them too: one that left links just before a close was not waited for, and its threads still
    // ran once close returned. Pruned of links whose threads have all ended, so a long-running proxy keeps none.
    private final Set<Link> leaving = new HashSet<>();

    private TcpProxy(ServerSocket listener, InetSocketAddress target) {
        this.listener = listener;
        this.acceptor = new Thread(this::acceptLoop, "tcp-proxy-accept-" + listener.getLocalPort());
        acceptor.setDaemon(true);
        this.target = target;
    }

    /**
     * Starts a proxy on a free port of 127.0.0.1 that forwards to {@code target}.
     *
     * @throws IllegalArgumentException if {@code target} is unresolved or has port 0: no connection could reach it
     */
    public static TcpProxy start(InetSocketAddress target) throws IOException {
        return start(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), target);
    }

    /**
     * Starts a proxy listening on {@code listen} (port 0 = a free port) that forwards to {@code target}.
     *
     * @throws IllegalArgumentException if {@code target} is unresolved or has port 0: no connection could reach it
     */
    public static TcpProxy start(InetSocketAddress listen, InetSocketAddress target) throws IOException {
        Objects.requireNonNull(listen, "listen");
        Objects.requireNonNull(target, "target");
        if (target.isUnresolved()) {
            throw new IllegalArgumentException("target must be resolved, was " + target.getHostString() + ":"
                    + target.getPort() + " (unresolved)");
        }
        if (target.getPort() == 0) {
            throw new IllegalArgumentException("target port must be 1..65535, was 0");
        }
        ServerSocket listener = new ServerSocket();
        listener.setReuseAddress(true);
        try {
            listener.bind(listen, 128);
        } catch (IOException e) {
            listener.close();
            throw new IOException("tcp proxy: cannot listen on " + listen + ": " + e.getMessage(), e);
        }
        TcpProxy proxy = new TcpProxy(listener, target);
        proxy.acceptor.start();
        return proxy;
    }

    /** The bound address (the real port when started on port 0). */
    public InetSocketAddress address() {
        return new InetSocketAddress(listener.getInetAddress(), listener.getLocalPort());
    }

    /** The bound port. */
    public int port() {
        return listener.getLocalPort();
    }

    /**
     * {@code host:port} of the bound address, ready for a gRPC target or an address list; an IPv6 host is in brackets
     * ({@code [::1]:port}), without which its last group could not be told from the port.
     */
    public String hostPort() {
        InetAddress host = listener.getInetAddress();
        String address = host.getHostAddress();
        return (host instanceof Inet6Address ? "[" + address + "]" : address) + ":" + listener.getLocalPort();
    }

    /**
     * Delays each direction by {@code oneWay} from now on (chunks already read keep their time). Zero = none; one of
     * about 292 years or more holds every byte until the link is cut or closed.
     */
    public TcpProxy delay(Duration oneWay) {
        Objects.requireNonNull(oneWay, "oneWay");
        if (oneWay.isNegative()) {
            throw new IllegalArgumentException("delay must be >= 0, got " + oneWay);
        }
        lock.lock();
        try {
            delay = oneWay;
        } finally {
            lock.unlock();
        }
        return this;
    }

    /**
     * Stops every byte, both ways, on every connection, open or new, until {@link #thaw()}. Connections stay open. No
     * byte sent after this returns arrives before the thaw; a chunk already being passed on when it is called (at most
     * one per direction of a connection) still finishes, as bytes already on the wire land when a peer stops.
     */
    public void freeze() {
        lock.lock();
        try {
            frozen = true;
        } finally {
            lock.unlock();
        }
    }

    /** Lets bytes move again; what was held goes on in order. */
    public void thaw() {
        lock.lock();
        try {
            frozen = false;
            thawed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /**
     * Resets every open connection (both of its sockets) and waits for their threads to end; the proxy keeps
     * accepting new ones.
     */
    public void cut() {
        // Under the close lock, so that a close() after (or beside) it waits for the connections it reset too.
        closing.lock();
        try {
            List<Link> cut = drainLinks(false);
            for (Link link : cut) {
                link.reset();
            }
            awaitThreads(cut);
        } finally {
            closing.unlock();
        }
    }

    /** How many connections are open now. */
    public int connections() {
        lock.lock();
        try {
            return links.size();
        } finally {
            lock.unlock();
        }
    }

    /**
     * Stops listening and resets every connection: once it returns, a connection to the proxy's address is refused
     * (unless something else listens there by then), and every thread of the proxy has ended. Idempotent; a close
     * that comes while another runs waits for it. An
     * interrupt does not cut it short (its waits are bounded); it is kept on the thread.
     */
    @Override
    public void close() {
        closing.lock();
        try {
            closeNow();
        } finally {
            closing.unlock();
        }
    }

    private void closeNow() {
        try {
            listener.close();
        } catch (IOException e) {
            // Closing a listening socket has nothing left to fail on that the caller could act on.
        }
        List<Link> links = drainLinks(true);
        for (Link link : links) {
            link.reset();
        }
        // The JDK closes a socket that a thread is blocked accepting on only once that thread has left accept; until
        // then the kernel still completes connections into the backlog. Waited for last, so that every connection is
        // reset whatever happens here.
        if (!awaitUninterruptibly(() -> acceptor.join(Duration.ofSeconds(10)))) {
            throw new IllegalStateException("tcp proxy: the acceptor of " + address() + " did not stop in 10 s");
        }
        // Nothing the proxy started outlives close: a connect to the target under way, the pumps.
        awaitThreads(links);
    }

    /** Waits for the threads of links already reset, at most 10 s each. */
    private void awaitThreads(List<Link> links) {
        for (Link link : links) {
            if (!awaitUninterruptibly(() -> link.awaitThreads(Duration.ofSeconds(10)))) {
                throw new IllegalStateException("tcp proxy: a connection of " + address() + " did not stop in 10 s");
            }
        }
    }

    /** A wait bounded in time that an interrupt could cut short. */
    @FunctionalInterface
    private interface BoundedWait {
        boolean await() throws InterruptedException;
    }

    /**
     * Runs {@code wait} to its end, then sets the interrupt flag again if it was set before or meanwhile. A close on
     * an interrupted thread (a try-with-resources in a test that a timeout interrupted) returned at once, the proxy
     * still taking connections and its threads running; the waits are short and bounded, so they are not cut short.
     */
    private static boolean awaitUninterruptibly(BoundedWait wait) {
        boolean interrupted = Thread.interrupted();
        try {
            while (true) {
                try {
                    return wait.await();
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** Blocks until {@link #close()} was called. */
    public void awaitClosed() throws InterruptedException {
        lock.lock();
        try {
            while (!closed) {
                closedCondition.await();
            }
        } finally {
            lock.unlock();
        }
    }

    private List<Link> drainLinks(boolean closing) {
        lock.lock();
        try {
            if (closing) {
                closed = true;
                closedCondition.signalAll();
            }
            List<Link> open = new ArrayList<>(links);
            links.clear();
            open.addAll(leaving); // their reset is a no-op; their threads are waited for with the others'
            leaving.clear();
            return open;
        } finally {
            lock.unlock();
        }
    }

    private void acceptLoop() {
        while (true) {
            Socket client;
            try {
                client = listener.accept();
            } catch (IOException e) {
                return; // the listener was closed
            }
            Link link = new Link(this, client, target);
            if (!register(link)) {
                link.reset();
            }
        }
    }

    /** Counts and starts {@code link}; false (neither done) once closed. */
    private boolean register(Link link) {
        lock.lock();
        try {
            if (closed) {
                return false;
            }
            links.add(link);
            // Started under the lock: a cut() that took the link between the two found no thread to wait for and
            // returned, and the link's connect thread started after it.
            link.start();
            return true;
        } finally {
            lock.unlock();
        }
    }

    /** Called by a link once both its sockets are closed. */
    void forget(Link link) {
        lock.lock();
        try {
            if (links.remove(link)) {
                leaving.removeIf(Link::threadsEnded);
                leaving.add(link); // its own thread is still running: the one calling this
            }
        } finally {
            lock.unlock();
        }
    }

    /** The delay a chunk read now gets. */
    Duration currentDelay() {
        lock.lock();
        try {
            return delay;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Blocks while the proxy is frozen; returns at once when it is not. Not woken by close: a pump woken then went on
     * with what the freeze held, and delivered it before close reached its link's reset; the reset's interrupt ends it.
     */
    void awaitForwarding() throws InterruptedException {
        lock.lock();
        try {
            while (frozen) {
                thawed.await();
            }
        } finally {
            lock.unlock();
        }
    }

    /**
     * Runs a proxy as a process: {@code --listen=HOST:PORT --target=HOST:PORT [--delay-ms=N]}, then commands on
     * standard input. See the class comment.
     */
    public static void main(String[] args) {
        ProxyOptions options;
        try {
            options = ProxyOptions.parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println("tcp-proxy: " + e.getMessage());
            System.exit(2);
            return;
        }
        TcpProxy proxy;
        try {
            proxy = start(options.listen(), options.target());
        } catch (IOException e) {
            System.err.println("tcp-proxy: " + e.getMessage());
            System.exit(1);
            return;
        }
        proxy.delay(options.delay());
        Runtime.getRuntime().addShutdownHook(new Thread(proxy::close, "tcp-proxy-shutdown"));
        System.out.println("listening on " + proxy.hostPort());
        System.out.flush();
        try {
            readCommands(proxy);
            proxy.awaitClosed();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (UncheckedIOException e) {
            System.err.println("tcp-proxy: standard input: " + e.getCause().getMessage());
        } finally {
            proxy.close();
        }
    }

    /** Applies the commands of standard input until it ends (an absent or closed input leaves the proxy running). */
    private static void readCommands(TcpProxy proxy) {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        String line;
        try {
            while ((line = in.readLine()) != null) {
                String command = line.strip();
                try {
                    applyCommand(proxy, command);
                    System.out.println("ok " + command);
                } catch (IllegalArgumentException e) {
                    System.out.println("error " + e.getMessage());
                }
                System.out.flush();
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void applyCommand(TcpProxy proxy, String command) {
        switch (command) {
            case "freeze" -> proxy.freeze();
            case "thaw" -> proxy.thaw();
            case "cut" -> proxy.cut();
            default -> {
                if (command.startsWith("delay-ms=")) {
                    proxy.delay(ProxyOptions.parseDelay("delay-ms", command.substring("delay-ms=".length())));
                } else {
                    throw new IllegalArgumentException(
                            "unknown command '" + command + "' (freeze, thaw, cut, delay-ms=N)");
                }
            }
        }
    }
}
