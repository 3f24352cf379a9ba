package dev.orderly.multihost;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Turns between multi-host runs on one machine (two builds, two CI jobs on one runner): the namespaces' names are the
 * machine's, so a run's clean-up of "what a killed run left" must never touch the hosts of a run that is alive. A run
 * holds an exclusive lock on {@link #FILE} while it uses the namespaces; another one waits for it, up to
 * {@link #WAIT}. The kernel drops the lock when the holding process ends, SIGKILL included, so what the next run finds
 * is only ever what a run that has ended left.
 *
 * <p>Within a JVM the holds are counted: the file is locked at the first {@link #take()} and released when the last
 * {@link Hold} is closed (a {@link Network} keeps one from its creation to its close; the clean-up and the probe take
 * one for their own steps). Thread-safe: {@code lock} guards {@code holds} and {@code file}.
 */
final class NamespaceLock {

    /** The lock's file; {@code /run/lock} is the machine's directory for such locks. */
    static final Path FILE = Path.of("/run/lock/orderly-mh.lock");
    /** How long a run waits for another one to end; under Surefire's fork timeout for the module. */
    static final Duration WAIT = Duration.ofMinutes(5);

    private static final ReentrantLock lock = new ReentrantLock();
    // guarded by lock: the holds taken in this JVM and not closed, and the file's lock while there is one
    private static int holds;
    private static FileLock file;

    private NamespaceLock() {
    }

    /** One hold on the lock; {@link #close()} gives it back (once; a second close does nothing). */
    static final class Hold implements AutoCloseable {
        private boolean closed;

        private Hold() {
        }

        @Override
        public void close() throws IOException {
            lock.lock();
            try {
                if (closed) {
                    return;
                }
                closed = true;
                if (--holds == 0) {
                    FileLock held = file;
                    file = null;
                    held.channel().close(); // releases the lock with it
                }
            } finally {
                lock.unlock();
            }
        }
    }

    /**
     * Takes a hold: at once if this JVM holds the lock already, else after the run that holds it ends.
     *
     * @throws IOException if another run held it for {@link #WAIT}, the file can not be opened, or the wait was
     *     interrupted (the interrupt is kept)
     */
    static Hold take() throws IOException {
        // Holding the JVM's lock through the wait keeps a second thread of this JVM from locking the file twice
        // (which Java refuses); that thread waits behind the first, as the other run's threads do.
        lock.lock();
        try {
            if (holds == 0) {
                file = lockFile();
            }
            holds++;
            return new Hold();
        } finally {
            lock.unlock();
        }
    }

    private static FileLock lockFile() throws IOException {
        FileChannel channel = FileChannel.open(FILE, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
        // FileChannel.lock blocks with no time limit: it waits on its own thread, bounded here; closing the channel
        // ends that wait (and drops the lock if it was taken just then).
        FutureTask<FileLock> locking = new FutureTask<>(channel::lock);
        Thread.ofPlatform().daemon().name("multihost-namespace-lock").start(locking);
        boolean kept = false;
        try {
            FileLock taken = locking.get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
            kept = true;
            return taken;
        } catch (TimeoutException e) {
            throw new IOException("another multi-host run has held " + FILE + " for " + WAIT.toMinutes()
                    + " min; its namespaces were left alone (ip netns list shows them)");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while waiting for another multi-host run to end (" + FILE + ")", e);
        } catch (ExecutionException e) {
            throw new IOException("can not lock " + FILE + ": " + e.getCause(), e.getCause());
        } finally {
            if (!kept) {
                channel.close();
            }
        }
    }
}
