package dev.orderly.engine;

import dev.orderly.api.OutputStore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.ClosedByInterruptException;
import java.nio.channels.FileChannel;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.AccessDeniedException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;

/**
 * An {@link OutputStore} on disk: one file per segment, named {@code segment-<n>.out}, in one directory.
 *
 * <p>A write goes to a temporary file in the same directory, forced to the disk, and is then moved into place
 * atomically, so a reader sees either no file or the whole output, never part of one, after a crash of the machine
 * too. A missing file reads as empty. Any other I/O problem is an {@link IOException} whose message names the path, a
 * file too long for a {@code byte[]} included. This class is thread-safe.
 */
public final class FileOutputStore implements OutputStore {

    private final Path dir;

    /**
     * A store in {@code dir}, which is created if it does not exist.
     *
     * @throws UncheckedIOException naming {@code dir} if it can not be created or is not a directory
     */
    public FileOutputStore(Path dir) {
        this.dir = Objects.requireNonNull(dir, "dir");
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new UncheckedIOException("can not create output directory " + dir + ": " + why(e), e);
        }
    }

    /** The directory this store writes to. */
    public Path directory() {
        return dir;
    }

    /** The file that holds the output of {@code segment}. */
    public Path pathOf(long segment) {
        if (segment < 0) {
            throw new IllegalArgumentException("segment must be >= 0, was " + segment);
        }
        return dir.resolve("segment-" + segment + ".out");
    }

    /**
     * Stores {@code output} as the output of {@code segment}, atomically replacing any earlier one.
     *
     * @throws IOException naming the path when the write fails
     */
    public void write(long segment, byte[] output) throws IOException {
        Objects.requireNonNull(output, "output");
        Path target = pathOf(segment);
        Path temp = null;
        try {
            // Not Files.createTempFile: its file is rw------- whatever the umask, and the output moved into place
            // would be readable by this user alone, not by a tier1 running as another on the same file system.
            temp = dir.resolve("segment-" + segment + "-" + UUID.randomUUID() + ".tmp");
            try (FileChannel file = FileChannel.open(temp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
                // In pieces, as Files.write did: the JDK copies a heap buffer into a native one of its size, kept by
                // the writing thread; the whole output at once held its size off the heap for the thread's life.
                for (int from = 0; from < output.length; ) {
                    ByteBuffer piece = ByteBuffer.wrap(output, from, Math.min(WRITE_PIECE, output.length - from));
                    while (piece.hasRemaining()) {
                        file.write(piece);
                    }
                    from = piece.position();
                }
                // On the disk before its name is: a file system may make the rename durable before the data, and
                // after a crash of the machine segment-<n>.out would be there with part of the output or none, which
                // a resumed request takes for the whole of it.
                file.force(false);
            }
            try {
                Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(temp, target, StandardCopyOption.REPLACE_EXISTING);
            }
            temp = null;
        } catch (IOException e) {
            throw new IOException("can not write " + target + ": " + why(e), e);
        } finally {
            if (temp != null) {
                Files.deleteIfExists(temp);
            }
        }
    }

    /**
     * Deletes the output of {@code segment}, if any.
     *
     * @throws IOException naming the path when the delete fails
     */
    public void delete(long segment) throws IOException {
        Path target = pathOf(segment);
        try {
            Files.deleteIfExists(target);
        } catch (IOException e) {
            throw new IOException("can not delete " + target + ": " + why(e), e);
        }
    }

    /**
     * {@inheritDoc}
     *
     * @throws IOException naming the path when the file can not be read, or is longer than the longest
     *     {@code byte[]} ({@code Integer.MAX_VALUE - 8} bytes)
     */
    @Override
    public Optional<byte[]> read(long segment) throws IOException {
        Path target = pathOf(segment);
        long size;
        try (SeekableByteChannel file = Files.newByteChannel(target)) {
            size = file.size();
            if (size <= MAX_OUTPUT_BYTES) {
                // The file's own stream reads up to size bytes, fewer if it was cut short in place since its size.
                return Optional.of(Channels.newInputStream(file).readNBytes((int) size));
            }
        } catch (NoSuchFileException e) {
            return Optional.empty();
        } catch (IOException e) {
            throw new IOException("can not read " + target + ": " + why(e), e);
        }
        // Files.readAllBytes would throw OutOfMemoryError here, which the engine takes for the VM's own and rethrows.
        throw new IOException("can not read " + target + ": it holds " + size
                + " bytes, more than one output can have (" + MAX_OUTPUT_BYTES + ", the longest byte[])");
    }

    /**
     * Whether the file of {@code segment} is there, from the file system alone: its bytes are not read (a request with
     * resume reads them once, at delivery).
     *
     * @throws IOException naming the path when it can not be looked at, or is a directory
     */
    @Override
    public boolean contains(long segment) throws IOException {
        Path target = pathOf(segment);
        BasicFileAttributes attributes;
        try {
            attributes = Files.readAttributes(target, BasicFileAttributes.class);
        } catch (NoSuchFileException e) {
            return false;
        } catch (IOException e) {
            throw new IOException("can not look up " + target + ": " + why(e), e);
        }
        if (attributes.isDirectory()) {
            // What read would refuse: saying false would have the segment run again only to fail at its delivery.
            throw new IOException("can not look up " + target + ": it is a directory, not a segment's output");
        }
        return true;
    }

    /**
     * Why a file operation failed, in words, naming the file it failed on: Java's own text
     * ({@code java.nio.file.FileAlreadyExistsException: /out/r-1}) reached a tier1's user through a tier2's failure
     * reason and the engine's "giving up" line.
     */
    private static String why(IOException e) {
        String reason = switch (e) {
            case AccessDeniedException x -> "permission denied";
            case NoSuchFileException x -> "no such file or directory";
            case NotDirectoryException x -> "not a directory";
            case FileAlreadyExistsException x -> "a file is in the way";
            case DirectoryNotEmptyException x -> "a directory that is not empty is in the way";
            case FileSystemException x when x.getReason() != null -> x.getReason();
            default -> null;
        };
        if (e instanceof FileSystemException fs) {
            String file = fs.getFile() == null ? "" : fs.getFile()
                    + (fs.getOtherFile() == null ? "" : " -> " + fs.getOtherFile()) + ": ";
            return file + (reason == null ? "input/output error" : reason);
        }
        if (e instanceof ClosedByInterruptException) {
            return "interrupted: the thread was interrupted, which closes the file";
        }
        return e.getMessage() == null ? "input/output error" : e.getMessage();
    }

    /** The most bytes handed to one write of the temporary file: what Files.write hands its stream. */
    private static final int WRITE_PIECE = 8192;

    /** The longest output a segment's file may hold: the longest {@code byte[]} the JVM makes. */
    private static final long MAX_OUTPUT_BYTES = Integer.MAX_VALUE - 8;
}
