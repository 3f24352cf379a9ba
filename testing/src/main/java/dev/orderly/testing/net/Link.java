package dev.orderly.testing.net;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.DelayQueue;
import java.util.concurrent.Delayed;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * One proxied connection: the accepted client socket, the socket to the target, and a reader and a writer per
 * direction, with a delay line between them.
 *
 * <p>Invariants, guarded by {@code lock}: {@code connecting} is the upstream socket while its connect is under way,
 * {@code upstream} the same socket once connected (set once); once {@code reset} is true both sockets are closed (a
 * connect under way fails at once) and every pump thread is interrupted;
 * {@code endedDirections} counts directions whose writer saw the end of its stream (0..2), and at 2 the link closes.
 */
final class Link {

    private static final int CHUNK = 16 * 1024;

    private final TcpProxy proxy;
    private final Socket client;
    private final InetSocketAddress target;
    private final ReentrantLock lock = new ReentrantLock();
    // guarded by lock
    private Socket connecting;
    // guarded by lock
    private Socket upstream;
    // guarded by lock
    private boolean reset;
    // guarded by lock
    private int endedDirections;
    // guarded by lock
    private final List<Thread> pumps = new ArrayList<>();

    Link(TcpProxy proxy, Socket client, InetSocketAddress target) {
        this.proxy = proxy;
        this.client = client;
        this.target = target;
    }

    // written once, by start, before the thread runs; read by the thread that closes the proxy
    private volatile Thread connector;

    void start() {
        Thread thread = daemon(this::connect, "tcp-proxy-connect-" + client.getPort());
        connector = thread;
        thread.start();
    }

    /**
     * After {@link #reset()}: waits, up to {@code atMost} in all, for the link's threads (its connect, its pumps) to
     * end, which they do at once once its sockets are closed. Returns whether they all did.
     */
    boolean awaitThreads(Duration atMost) throws InterruptedException {
        long deadline = System.nanoTime() + atMost.toNanos();
        List<Thread> threads = new ArrayList<>();
        Thread c = connector;
        if (c != null) {
            threads.add(c);
        }
        lock.lock();
        try {
            threads.addAll(pumps);
        } finally {
            lock.unlock();
        }
        for (Thread thread : threads) {
            long left = Math.max(0, deadline - System.nanoTime());
            if (thread != Thread.currentThread() && thread.isAlive()
                    && !thread.join(Duration.ofNanos(Math.max(left, 1)))) {
                return false;
            }
        }
        return true;
    }

    /** Whether every thread of this link (its connect, its pumps) has ended; false while one may still start. */
    boolean threadsEnded() {
        Thread c = connector;
        if (c != null && c.isAlive()) {
            return false;
        }
        lock.lock();
        try {
            return (upstream != null || reset) && pumps.stream().noneMatch(Thread::isAlive);
        } finally {
            lock.unlock();
        }
    }

    /** Closes both sockets at once with a reset (no orderly shutdown) and stops the pumps. Idempotent. */
    void reset() {
        List<Thread> toInterrupt;
        Socket up;
        lock.lock();
        try {
            if (reset) {
                return;
            }
            reset = true;
            // A connect under way is closed too: it fails at once, instead of reaching the target after the reset.
            up = upstream != null ? upstream : connecting;
            toInterrupt = List.copyOf(pumps);
        } finally {
            lock.unlock();
        }
        abort(client);
        if (up != null) {
            abort(up);
        }
        toInterrupt.forEach(Thread::interrupt);
        proxy.forget(this);
    }

    private void connect() {
        Socket up = new Socket();
        lock.lock();
        try {
            if (reset) {
                return;
            }
            connecting = up;
        } finally {
            lock.unlock();
        }
        try {
            up.setTcpNoDelay(true);
            client.setTcpNoDelay(true);
            up.connect(target, 10_000);
        } catch (IOException e) {
            abort(up);
            reset(); // the client sees its connection reset, as a refused connect would look through a proxy
            return;
        }
        boolean broken = false;
        lock.lock();
        try {
            connecting = null;
            if (reset) {
                abort(up);
                return;
            }
            upstream = up;
            pump(client, up, "up");
            pump(up, client, "down");
            pumps.forEach(Thread::start);
        } catch (IOException e) {
            broken = true; // a socket closed under us between connect and the pumps
        } finally {
            lock.unlock();
        }
        if (broken) {
            reset();
        }
    }

    /** Creates (not starts) the reader and the writer of one direction. Called with the lock held. */
    private void pump(Socket from, Socket to, String direction) throws IOException {
        InputStream in = from.getInputStream();
        OutputStream out = to.getOutputStream();
        Line line = new Line();
        String name = "tcp-proxy-" + client.getPort() + "-" + direction;
        pumps.add(daemon(() -> read(in, line), name + "-read"));
        pumps.add(daemon(() -> write(line, out, to), name + "-write"));
    }

    /**
     * One direction's delay line. Its writer signals {@code taken} after each take; its reader waits, before it reads
     * on, while a chunk already due is still in the line, that is while the writer lags (its receiver reads nothing):
     * without that wait the reader took every byte the sender sent into the heap, and the sender never felt a slow
     * receiver. Chunks not yet due do not hold it: a delay line holds what the delay needs.
     */
    private static final class Line {
        final DelayQueue<Chunk> chunks = new DelayQueue<>();
        final ReentrantLock lock = new ReentrantLock();
        final Condition taken = lock.newCondition();

        void awaitWriter() throws InterruptedException {
            lock.lock();
            try {
                Chunk head;
                while ((head = chunks.peek()) != null && head.getDelay(TimeUnit.NANOSECONDS) <= 0) {
                    taken.await();
                }
            } finally {
                lock.unlock();
            }
        }

        Chunk take() throws InterruptedException {
            Chunk chunk = chunks.take();
            lock.lock();
            try {
                taken.signalAll();
            } finally {
                lock.unlock();
            }
            return chunk;
        }
    }

    private void read(InputStream in, Line line) {
        byte[] buffer = new byte[CHUNK];
        long seq = 0;
        long lastDue = Long.MIN_VALUE;
        try {
            while (true) {
                int n = in.read(buffer);
                proxy.awaitForwarding();
                long due = dueAfter(proxy.currentDelay());
                // Never before an earlier chunk: a shortened delay must not reorder the stream.
                lastDue = lastDue == Long.MIN_VALUE ? due : Math.max(due, lastDue);
                byte[] bytes = n < 0 ? null : Arrays.copyOf(buffer, n);
                line.chunks.put(new Chunk(bytes, lastDue, seq++));
                if (n < 0) {
                    return;
                }
                line.awaitWriter();
            }
        } catch (IOException e) {
            reset();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt(); // reset() interrupted this pump: the link is gone
        }
    }

    /**
     * When a chunk read now is due: a delay too long to count (near or over {@link Long#MAX_VALUE} ns, about 292
     * years, a test's "never") saturates instead of overflowing, which threw in the reader (its direction dead) or
     * wrapped the due time, and so the order of the chunks, round.
     */
    private static long dueAfter(Duration delay) {
        try {
            return Math.addExact(System.nanoTime(), delay.toNanos());
        } catch (ArithmeticException tooLong) {
            return Long.MAX_VALUE;
        }
    }

    private void write(Line line, OutputStream out, Socket to) {
        try {
            while (true) {
                Chunk chunk = line.take();
                proxy.awaitForwarding();
                if (chunk.bytes() == null) {
                    to.shutdownOutput();
                    directionEnded();
                    return;
                }
                out.write(chunk.bytes());
                out.flush();
            }
        } catch (IOException e) {
            reset();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt(); // reset() interrupted this pump: the link is gone
        }
    }

    private void directionEnded() {
        Socket up;
        lock.lock();
        try {
            if (++endedDirections < 2 || reset) {
                return;
            }
            up = upstream;
        } finally {
            lock.unlock();
        }
        close(client);
        close(up);
        proxy.forget(this);
    }

    private static Thread daemon(Runnable body, String name) {
        Thread thread = new Thread(body, name);
        thread.setDaemon(true);
        return thread;
    }

    /** Closes with SO_LINGER 0: the peer gets a reset, not an orderly end of stream. */
    private static void abort(Socket socket) {
        try {
            if (!socket.isClosed() && socket.isConnected()) {
                socket.setSoLinger(true, 0);
            }
        } catch (IOException e) {
            // The socket is already unusable; closing it below is all that is left to do.
        }
        close(socket);
    }

    private static void close(Socket socket) {
        try {
            socket.close();
        } catch (IOException e) {
            // Nothing to recover: the socket is gone either way.
        }
    }

    /** Bytes read at one time, due on the other side at {@code dueNanos}; {@code bytes == null} is the end of stream. */
    private record Chunk(byte[] bytes, long dueNanos, long seq) implements Delayed {
        @Override
        public long getDelay(TimeUnit unit) {
            return unit.convert(dueNanos - System.nanoTime(), TimeUnit.NANOSECONDS);
        }

        @Override
        public int compareTo(Delayed other) {
            Chunk that = (Chunk) other;
            int byDue = Long.compare(dueNanos, that.dueNanos);
            return byDue != 0 ? byDue : Long.compare(seq, that.seq);
        }
    }
}
