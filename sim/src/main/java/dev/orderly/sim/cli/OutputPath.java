package dev.orderly.sim.cli;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayDeque;
import java.util.Deque;
import picocli.CommandLine;
import picocli.CommandLine.ParameterException;

/**
 * The file a command writes its picture to: checked before anything runs, so that a path that cannot be written costs
 * a one-line error and not a whole run; and a failed write described in words, with no Java class name.
 */
final class OutputPath {

    private OutputPath() {
    }

    /**
     * The absolute path {@code given} names, once it is clear that the file can be created there (its directory
     * exists or can be made, and can be written).
     *
     * @param option the option's name, for the error
     * @throws ParameterException naming the option and the path when it cannot be
     */
    static Path check(CommandLine cl, String option, String given) {
        if (given == null || given.isBlank()) {
            throw new ParameterException(cl, option + " must name a file, was '" + (given == null ? "" : given) + "'");
        }
        Path path;
        try {
            path = Path.of(given).toAbsolutePath().normalize();
        } catch (InvalidPathException e) {
            throw new ParameterException(cl, option + " is not a valid path, was '" + given + "': " + e.getReason());
        }
        if (Files.isDirectory(path)) {
            throw new ParameterException(cl, option + " must name a file, not the directory " + path);
        }
        if (Files.exists(path) && !Files.isWritable(path)) {
            throw new ParameterException(cl, option + ": " + path + " cannot be written (permission denied)");
        }
        Path dir = path.getParent();
        while (dir != null && !Files.exists(dir)) {
            dir = dir.getParent();
        }
        if (dir == null) {
            throw new ParameterException(cl, option + ": no directory of " + path + " exists");
        }
        if (!Files.isDirectory(dir)) {
            throw new ParameterException(cl, option + ": cannot write " + path + ", because " + dir
                    + " is a file, not a directory");
        }
        if (!Files.isWritable(dir)) {
            throw new ParameterException(cl, option + ": cannot write " + path + ", because " + dir
                    + " cannot be written (permission denied)");
        }
        try {
            tryCreate(path);
        } catch (IOException e) {
            throw new ParameterException(cl, option + ": cannot write " + describe(e));
        }
        return path;
    }

    /**
     * Creates the file and the directories it needs, and removes what it made. Permission bits say "writable" to
     * root everywhere and to anyone in {@code /proc} or on a read-only mount; only making the file tells. A file
     * that is there is opened for writing, not truncated: the check changes nothing a refused run would leave.
     */
    static void tryCreate(Path path) throws IOException {
        // Two commands started at once in one directory check their pictures in the same new orderly-out/: the other
        // one makes and removes the directories this one makes and removes. A directory it made as this one looked is
        // there (FileAlreadyExistsException), one it removed is made again (NoSuchFileException): a few tries, not a
        // refusal of a path that can be written.
        for (int attempt = 1; ; attempt++) {
            try {
                tryCreateOnce(path);
                return;
            } catch (FileAlreadyExistsException | NoSuchFileException e) {
                if (attempt == CREATE_ATTEMPTS) {
                    throw e;
                }
            }
        }
    }

    private static final int CREATE_ATTEMPTS = 5;

    /** The most links followed to a file, as Linux's own limit: a loop of links is refused, not followed for ever. */
    private static final int MAX_LINKS = 40;

    /**
     * The file a write to {@code path} (absolute) lands in: the end of its links, as far as they can be read (at most
     * {@link #MAX_LINKS}), in its directory's real path when that exists (a ".." in a link is the system's, not the
     * text's); {@code path} itself when it is no link.
     */
    static Path followed(Path path) {
        Path target = path;
        try {
            for (int hops = 0; hops < MAX_LINKS && Files.isSymbolicLink(target); hops++) {
                target = target.resolveSibling(Files.readSymbolicLink(target));
            }
            Path dir = target.getParent();
            return dir == null ? target : dir.toRealPath().resolve(target.getFileName());
        } catch (IOException e) {
            // a link that can not be read, or a directory not there (yet): as far as it went
            return target.normalize();
        }
    }

    /**
     * Whether writes to {@code a} and {@code b} (absolute) land in one file: through links ({@link #followed}), or,
     * when both are there, as one file under two names (a hard link), which no comparison of paths sees.
     */
    static boolean sameFile(Path a, Path b) {
        if (followed(a).equals(followed(b))) {
            return true;
        }
        try {
            return Files.exists(a) && Files.exists(b) && Files.isSameFile(a, b);
        } catch (IOException e) {
            // gone, or not readable, between the looks: the check before the write then tells
            return false;
        }
    }

    private static void tryCreateOnce(Path path) throws IOException {
        // A link to a file not there yet: the write follows it and creates that file (not its directory), so that is
        // what to try; creating the link's own path failed, as it exists, and a path that can be written was refused.
        Path target = path;
        for (int hops = 0; hops < MAX_LINKS && Files.isSymbolicLink(target) && !Files.exists(target); hops++) {
            target = target.resolveSibling(Files.readSymbolicLink(target));
        }
        if (!target.equals(path)) {
            Files.createFile(target);
            Files.delete(target);
            return;
        }
        if (Files.exists(path)) {
            try (FileChannel ignored = FileChannel.open(path, StandardOpenOption.WRITE)) {
                return;
            }
        }
        Deque<Path> missing = new ArrayDeque<>();
        for (Path d = path.getParent(); !Files.exists(d); d = d.getParent()) {
            missing.push(d);
        }
        Deque<Path> made = new ArrayDeque<>(); // only what this check made: the deepest first
        try {
            for (Path d : missing) {
                Files.createDirectory(d);
                made.push(d);
            }
            Files.createFile(path);
            Files.delete(path);
        } finally {
            try {
                while (!made.isEmpty()) {
                    Files.deleteIfExists(made.pop());
                }
            } catch (DirectoryNotEmptyException inUse) {
                // Another command's file is in it now (and in every directory above it): theirs to keep.
            }
        }
    }

    /** Why a write failed, in words: the file and the reason, never the exception's class. */
    static String describe(IOException e) {
        String reason = switch (e) {
            case AccessDeniedException x -> "permission denied";
            case NoSuchFileException x -> "no such file or directory";
            case NotDirectoryException x -> "not a directory";
            case FileSystemException x when x.getReason() != null -> x.getReason();
            default -> null;
        };
        if (e instanceof FileSystemException fs && fs.getFile() != null) {
            return fs.getFile() + ": " + (reason == null ? "cannot be written" : reason);
        }
        return e.getMessage() == null ? "input/output error" : e.getMessage();
    }
}
