package dev.orderly.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

@Timeout(value = 10, unit = TimeUnit.SECONDS)
class OutputStoreTest {

    @TempDir
    Path dir;

    @Test
    void inMemoryStoreReadsWhatWasWrittenAndForgetsWhatWasDeleted() {
        InMemoryOutputStore store = new InMemoryOutputStore();
        assertEquals(Optional.empty(), store.read(3));
        store.write(3, new byte[] {1, 2});
        assertArrayEquals(new byte[] {1, 2}, store.read(3).orElseThrow());
        store.write(3, new byte[] {9});
        assertArrayEquals(new byte[] {9}, store.read(3).orElseThrow());
        assertEquals(1, store.size(), "one segment with an output, written twice");
        store.write(4, new byte[0]);
        assertEquals(2, store.size());
        store.delete(3);
        assertEquals(Optional.empty(), store.read(3));
        assertEquals(1, store.size());
    }

    @Test
    void inMemoryStoreCopiesSoCallersCanNotChangeWhatIsStored() {
        InMemoryOutputStore store = new InMemoryOutputStore();
        byte[] written = {1, 2, 3};
        store.write(0, written);
        written[0] = 42;
        store.read(0).orElseThrow()[1] = 42;
        assertArrayEquals(new byte[] {1, 2, 3}, store.read(0).orElseThrow());
    }

    @Test
    void fileStoreReadsWhatWasWrittenAndAMissingFileReadsAsEmpty() throws IOException {
        FileOutputStore store = new FileOutputStore(dir.resolve("outputs"));
        assertEquals(dir.resolve("outputs"), store.directory());
        assertEquals(Optional.empty(), store.read(7));
        store.write(7, "seven".getBytes());
        assertArrayEquals("seven".getBytes(), store.read(7).orElseThrow());
        store.write(7, "SEVEN!".getBytes());
        assertArrayEquals("SEVEN!".getBytes(), store.read(7).orElseThrow());
        store.delete(7);
        store.delete(7);
        assertEquals(Optional.empty(), store.read(7));
    }

    @Test
    void fileStoreReadsAnEmptyOutputAndALargeOneWhole() throws IOException {
        FileOutputStore store = new FileOutputStore(dir);
        store.write(0, new byte[0]);
        assertArrayEquals(new byte[0], store.read(0).orElseThrow());
        byte[] large = new byte[9 * 1024 * 1024 + 7];
        new Random(22).nextBytes(large);
        store.write(1, large);
        assertArrayEquals(large, store.read(1).orElseThrow());
    }

    @Test
    void fileStoreLeavesNoTemporaryFilesBehind() throws IOException {
        FileOutputStore store = new FileOutputStore(dir);
        for (int segment = 0; segment < 20; segment++) {
            store.write(segment, new byte[] {(byte) segment});
        }
        try (Stream<Path> files = Files.list(dir)) {
            List<String> names = files.map(p -> p.getFileName().toString()).sorted().toList();
            assertEquals(20, names.size());
            assertTrue(names.stream().allMatch(n -> n.matches("segment-\\d+\\.out")), names.toString());
        }
    }

    @Test
    void fileStoreReadErrorNamesThePath() throws IOException {
        FileOutputStore store = new FileOutputStore(dir);
        Files.createDirectory(store.pathOf(4)); // a directory where the file should be
        IOException e = assertThrows(IOException.class, () -> store.read(4));
        assertTrue(e.getMessage().contains(store.pathOf(4).toString()), e.getMessage());
    }

    @Test
    void fileStoreWriteErrorNamesThePath() throws IOException {
        FileOutputStore store = new FileOutputStore(dir);
        Path target = store.pathOf(5);
        Files.createDirectory(target);
        Files.writeString(target.resolve("occupant"), "x"); // a non-empty directory can not be replaced
        IOException e = assertThrows(IOException.class, () -> store.write(5, new byte[] {1}));
        assertTrue(e.getMessage().contains(target.toString()), e.getMessage());
    }

    @Test
    void fileStoreRejectsADirectoryItCanNotCreate() throws IOException {
        Path file = Files.writeString(dir.resolve("plain-file"), "x");
        RuntimeException e = assertThrows(RuntimeException.class, () -> new FileOutputStore(file.resolve("sub")));
        assertTrue(e.getMessage().contains(file.resolve("sub").toString()), e.getMessage());
    }

    @Test
    void fileStoreRejectsANegativeSegment() {
        FileOutputStore store = new FileOutputStore(dir);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> store.read(-1));
        assertTrue(e.getMessage().contains("segment") && e.getMessage().contains("-1"), e.getMessage());
    }
    @Test
    void bugFileStoreReadOfAFileTooLargeForAByteArrayIsAnIOExceptionNamingThePath() throws IOException {
        FileOutputStore store = new FileOutputStore(dir);
        Path target = store.pathOf(6);
        // A sparse file: 3 GiB long, nothing written, so it costs no disk. No byte[] can hold it.
        try (RandomAccessFile file = new RandomAccessFile(target.toFile(), "rw")) {
            file.setLength(3L << 30);
        }
        try {
            IOException e = assertThrows(IOException.class, () -> store.read(6));
            assertTrue(e.getMessage().contains(target.toString()) && e.getMessage().contains("3221225472"),
                    e.getMessage());
        } finally {
            Files.delete(target);
        }
    }
    @Test
    void bugFileStoreContainsLooksAtTheFileWithoutReadingIt() throws IOException {
        FileOutputStore store = new FileOutputStore(dir);
        assertFalse(store.contains(8), "no file, no output");
        Path target = store.pathOf(8);
        // A sparse file too long to read: only an answer from the file system, not from its bytes, can say it is there.
        try (RandomAccessFile file = new RandomAccessFile(target.toFile(), "rw")) {
            file.setLength(3L << 30);
        }
        try {
            assertTrue(store.contains(8));
        } finally {
            Files.delete(target);
        }
        Files.createDirectory(store.pathOf(9)); // a directory where the file should be: read says so, and so does this
        IOException e = assertThrows(IOException.class, () -> store.contains(9));
        assertTrue(e.getMessage().contains(store.pathOf(9).toString()), e.getMessage());
    }
}
