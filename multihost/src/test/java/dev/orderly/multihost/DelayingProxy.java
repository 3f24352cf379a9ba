package dev.orderly.multihost;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.concurrent.DelayQueue;
import java.util.concurrent.Delayed;
import java.util.concurrent.TimeUnit;

/**
 * A slow link, since this kernel has no {@code netem}: a TCP proxy that forwards every byte in both directions
 * {@code --delay-ms} late, each direction on its own, order kept. A chunk read at {@code t} is written at
 * {@code t + delay}; bandwidth is not limited. Run as {@code DelayingProxy --listen=HOST:PORT --target=HOST:PORT
 * --delay-ms=N}; prints {@code listening on HOST:PORT}. One connection's two directions are independent; when one
 * side closes, the other side's output is shut after what was already read has been written.
 *
 * <p>Thread-safe by confinement: each direction of each connection has one reader and one writer thread, which share
 * only a {@link DelayQueue}.
 */
public final class DelayingProxy {

    private DelayingProxy() {
    }

    public static void main(String[] args) throws IOException {
        String listen = null;
        String target = null;
        long delayMs = -1;
        for (String a : args) {
            if (a.startsWith("--listen=")) {
                listen = a.substring("--listen=".length());
            } else if (a.startsWith("--target=")) {
                target = a.substring("--target=".length());
            } else if (a.startsWith("--delay-ms=")) {
                delayMs = Long.parseLong(a.substring("--delay-ms=".length()));
            } else {
                throw new IllegalArgumentException("unknown option '" + a + "'");
            }
        }
        if (listen == null || target == null || delayMs < 0) {
            throw new IllegalArgumentException("--listen, --target and --delay-ms >= 0 are required");
        }
        InetSocketAddress to = address(target);
        try (ServerSocket server = new ServerSocket()) {
            server.bind(address(listen));
            System.out.println("listening on " + listen);
            System.out.flush();
            long delayNanos = TimeUnit.MILLISECONDS.toNanos(delayMs);
            while (true) {
                Socket in = server.accept();
                Thread.ofPlatform().daemon().start(() -> connect(in, to, delayNanos));
            }
        }
    }

    private static void connect(Socket in, InetSocketAddress to, long delayNanos) {
        Socket out = new Socket();
        try {
            out.setTcpNoDelay(true);
            in.setTcpNoDelay(true);
            out.connect(to, 5_000);
        } catch (IOException e) {
            closeQuietly(in);
            closeQuietly(out);
            return;
        }
        pipe(in, out, delayNanos);
        pipe(out, in, delayNanos);
    }

    /** Forwards {@code from} to {@code to}, each chunk {@code delayNanos} after it was read. */
    private static void pipe(Socket from, Socket to, long delayNanos) {
        DelayQueue<Chunk> line = new DelayQueue<>();
        Thread.ofPlatform().daemon().start(() -> {
            byte[] buf = new byte[64 * 1024];
            long seq = 0;
            try (InputStream is = from.getInputStream()) {
                int n;
                while ((n = is.read(buf)) >= 0) {
                    line.put(new Chunk(Arrays.copyOf(buf, n), System.nanoTime() + delayNanos, seq++));
                }
            } catch (IOException e) {
                // the connection was reset: end this direction like a close
            }
            line.put(new Chunk(null, System.nanoTime() + delayNanos, seq));
        });
        Thread.ofPlatform().daemon().start(() -> {
            try {
                OutputStream os = to.getOutputStream();
                while (true) {
                    Chunk c = line.take();
                    if (c.bytes == null) {
                        to.shutdownOutput();
                        break;
                    }
                    os.write(c.bytes);
                    os.flush();
                }
            } catch (IOException e) {
                closeQuietly(from);
                closeQuietly(to);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
    }

    private static InetSocketAddress address(String hostPort) {
        int colon = hostPort.lastIndexOf(':');
        return new InetSocketAddress(hostPort.substring(0, colon), Integer.parseInt(hostPort.substring(colon + 1)));
    }

    private static void closeQuietly(Socket s) {
        try {
            s.close();
        } catch (IOException e) {
            // closing a broken socket: nothing more to do
        }
    }

    /** Bytes due at {@code due} (nanoTime); {@code seq} keeps the order of chunks read in the same nanosecond. */
    private record Chunk(byte[] bytes, long due, long seq) implements Delayed {
        @Override
        public long getDelay(TimeUnit unit) {
            return unit.convert(due - System.nanoTime(), TimeUnit.NANOSECONDS);
        }

        @Override
        public int compareTo(Delayed o) {
            Chunk c = (Chunk) o;
            return due != c.due ? Long.compare(due, c.due) : Long.compare(seq, c.seq);
        }
    }

    static {
        // The proxy prints for the test only; keep the encoding fixed.
        System.setOut(new java.io.PrintStream(System.out, true, StandardCharsets.UTF_8));
    }
}
