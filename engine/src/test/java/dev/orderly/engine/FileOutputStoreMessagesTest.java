package dev.orderly.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * What {@link FileOutputStore} says when the file system refuses it, word for word: its messages reach a tier1's user
 * through a tier2's failure reason, so each names the file and says why in words, never with a Java class name.
 */
@Timeout(10)
class FileOutputStoreMessagesTest {

    @TempDir
    Path dir;

    @Test
    void aFileWhereTheDirectoryShouldBeIsInTheWay() throws IOException {
        Path file = Files.writeString(dir.resolve("plain-file"), "x");
        UncheckedIOException e = assertThrows(UncheckedIOException.class, () -> new FileOutputStore(file));
        assertEquals("can not create output directory " + file + ": " + file + ": a file is in the way",
                e.getMessage());
    }

    @Test
    void aNonEmptyDirectoryWhereAnOutputIsDeletedIsInTheWay() throws IOException {
        FileOutputStore store = new FileOutputStore(dir);
        Path target = store.pathOf(3);
        Files.createDirectory(target);
        Files.writeString(target.resolve("occupant"), "x");
        IOException e = assertThrows(IOException.class, () -> store.delete(3));
        assertEquals("can not delete " + target + ": " + target + ": a directory that is not empty is in the way",
                e.getMessage());
    }

    @Test
    void aStoreWhoseDirectoryWentAwaySaysSoWithTheFileItCouldNotWrite() throws IOException {
        Path gone = dir.resolve("gone");
        FileOutputStore store = new FileOutputStore(gone);
        Files.delete(gone);
        IOException e = assertThrows(IOException.class, () -> store.write(1, new byte[] {1}));
        String message = e.getMessage();
        String prefix = "can not write " + store.pathOf(1) + ": " + gone + "/segment-1-";
        assertEquals(prefix, message.substring(0, Math.min(prefix.length(), message.length())), message);
        assertEquals(".tmp: no such file or directory", message.substring(message.lastIndexOf(".tmp")), message);
    }

    @Test
    void aReplacementTheFileSystemRefusesNamesBothFilesAndItsReason() throws IOException {
        FileOutputStore store = new FileOutputStore(dir);
        Path target = store.pathOf(5);
        Files.createDirectory(target);
        Files.writeString(target.resolve("occupant"), "x");
        IOException e = assertThrows(IOException.class, () -> store.write(5, new byte[] {1}));
        String message = e.getMessage();
        // The atomic rename onto a directory: the system's own reason (Linux's EISDIR), after both files.
        assertEquals(" -> " + target + ": Is a directory", message.substring(message.lastIndexOf(" -> ")), message);
    }

    @Test
    void aDirectoryWhereAnOutputIsReadIsSaidInTheSystemsWords() throws IOException {
        FileOutputStore store = new FileOutputStore(dir);
        Path target = store.pathOf(4);
        Files.createDirectory(target);
        IOException e = assertThrows(IOException.class, () -> store.read(4));
        assertEquals("can not read " + target + ": Is a directory", e.getMessage());
    }
}
