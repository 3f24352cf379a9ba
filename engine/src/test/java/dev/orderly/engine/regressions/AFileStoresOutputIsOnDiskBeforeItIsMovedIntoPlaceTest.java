package dev.orderly.engine.regressions;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orderly.engine.FileOutputStore;
import java.io.IOException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.SeekableByteChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.file.AccessMode;
import java.nio.file.CopyOption;
import java.nio.file.DirectoryStream;
import java.nio.file.FileStore;
import java.nio.file.FileSystem;
import java.nio.file.LinkOption;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.nio.file.WatchEvent;
import java.nio.file.WatchKey;
import java.nio.file.WatchService;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.FileAttributeView;
import java.nio.file.attribute.UserPrincipalLookupService;
import java.nio.file.spi.FileSystemProvider;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Regression: {@link FileOutputStore#write} wrote its temporary file and renamed it into place without forcing the
 * file's bytes to the disk first. The rename is a metadata change that the file system may make durable before the
 * data (XFS, ext4 for a new name, most others): after the machine stops (power, kernel panic) the output's name is
 * there and its bytes are not, a file of 0 bytes or part of the output. The store's promise, "a reader sees either no
 * file or the whole output, never part of one", then failed exactly where resume is meant to help: a request resumed
 * after the crash found the file, took it as the segment's output ({@code contains} is true, {@code read} returns
 * the short bytes) and handed the client a truncated output instead of re-running the segment.
 *
 * <p>A power cut can not be made in a test; what it depends on can be seen: the store runs on a file system that
 * records what is done to it (the default one underneath), and the temporary file must be forced before it is moved.
 */
class AFileStoresOutputIsOnDiskBeforeItIsMovedIntoPlaceTest {

    @Test
    void theTemporaryFileIsForcedToTheDiskBeforeItIsMovedIntoPlace(@TempDir Path real) throws Exception {
        List<String> events = new CopyOnWriteArrayList<>();
        RecordingFileSystem fs = new RecordingFileSystem(real.getFileSystem(), events);
        FileOutputStore store = new FileOutputStore(fs.wrap(real.resolve("outputs")));
        byte[] output = new byte[1024];
        output[output.length - 1] = 7;

        store.write(5, output);

        assertArrayEquals(output, store.read(5).orElseThrow(), "the output reads back whole");
        List<String> moves = events.stream().filter(e -> e.startsWith("move ")).toList();
        assertEquals(1, moves.size(), () -> "one move into place: " + events);
        String temp = moves.get(0).substring("move ".length(), moves.get(0).indexOf(" -> "));
        int move = events.indexOf(moves.get(0));
        int lastWrite = events.lastIndexOf("write " + temp);
        int force = events.subList(0, move).lastIndexOf("force " + temp);
        assertTrue(lastWrite >= 0 && force > lastWrite && force < move,
                () -> "the output's bytes must be forced to the disk after they are written and before the file is"
                        + " moved into place, else a crash of the machine can leave segment-5.out there with part of"
                        + " them or none; what the store did: " + events);
    }

    /** The default file system with every channel's writes and forces, and every move, recorded. */
    private static final class RecordingFileSystem extends FileSystem {
        final FileSystem real;
        final List<String> events;
        final RecordingProvider provider;

        RecordingFileSystem(FileSystem real, List<String> events) {
            this.real = real;
            this.events = events;
            this.provider = new RecordingProvider(this);
        }

        Path wrap(Path p) {
            return p == null ? null : new RecordingPath(this, p);
        }

        static Path unwrap(Path p) {
            return p instanceof RecordingPath r ? r.real : p;
        }

        @Override
        public FileSystemProvider provider() {
            return provider;
        }

        @Override
        public void close() {
            throw new UnsupportedOperationException();
        }

        @Override
        public boolean isOpen() {
            return true;
        }

        @Override
        public boolean isReadOnly() {
            return false;
        }

        @Override
        public String getSeparator() {
            return real.getSeparator();
        }

        @Override
        public Iterable<Path> getRootDirectories() {
            List<Path> roots = new ArrayList<>();
            real.getRootDirectories().forEach(r -> roots.add(wrap(r)));
            return roots;
        }

        @Override
        public Iterable<FileStore> getFileStores() {
            return real.getFileStores();
        }

        @Override
        public Set<String> supportedFileAttributeViews() {
            return real.supportedFileAttributeViews();
        }

        @Override
        public Path getPath(String first, String... more) {
            return wrap(real.getPath(first, more));
        }

        @Override
        public PathMatcher getPathMatcher(String syntaxAndPattern) {
            PathMatcher m = real.getPathMatcher(syntaxAndPattern);
            return p -> m.matches(unwrap(p));
        }

        @Override
        public UserPrincipalLookupService getUserPrincipalLookupService() {
            return real.getUserPrincipalLookupService();
        }

        @Override
        public WatchService newWatchService() {
            throw new UnsupportedOperationException();
        }
    }

    private record RecordingPath(RecordingFileSystem fs, Path real) implements Path {
        @Override
        public FileSystem getFileSystem() {
            return fs;
        }

        @Override
        public boolean isAbsolute() {
            return real.isAbsolute();
        }

        @Override
        public Path getRoot() {
            return fs.wrap(real.getRoot());
        }

        @Override
        public Path getFileName() {
            return fs.wrap(real.getFileName());
        }

        @Override
        public Path getParent() {
            return fs.wrap(real.getParent());
        }

        @Override
        public int getNameCount() {
            return real.getNameCount();
        }

        @Override
        public Path getName(int index) {
            return fs.wrap(real.getName(index));
        }

        @Override
        public Path subpath(int beginIndex, int endIndex) {
            return fs.wrap(real.subpath(beginIndex, endIndex));
        }

        @Override
        public boolean startsWith(Path other) {
            return real.startsWith(RecordingFileSystem.unwrap(other));
        }

        @Override
        public boolean endsWith(Path other) {
            return real.endsWith(RecordingFileSystem.unwrap(other));
        }

        @Override
        public Path normalize() {
            return fs.wrap(real.normalize());
        }

        @Override
        public Path resolve(Path other) {
            return fs.wrap(real.resolve(RecordingFileSystem.unwrap(other)));
        }

        @Override
        public Path relativize(Path other) {
            return fs.wrap(real.relativize(RecordingFileSystem.unwrap(other)));
        }

        @Override
        public URI toUri() {
            return real.toUri();
        }

        @Override
        public Path toAbsolutePath() {
            return fs.wrap(real.toAbsolutePath());
        }

        @Override
        public Path toRealPath(LinkOption... options) throws IOException {
            return fs.wrap(real.toRealPath(options));
        }

        @Override
        public WatchKey register(WatchService watcher, WatchEvent.Kind<?>[] events, WatchEvent.Modifier... modifiers) {
            throw new UnsupportedOperationException();
        }

        @Override
        public int compareTo(Path other) {
            return real.compareTo(RecordingFileSystem.unwrap(other));
        }

        @Override
        public Iterator<Path> iterator() {
            List<Path> names = new ArrayList<>();
            real.iterator().forEachRemaining(n -> names.add(fs.wrap(n)));
            return names.iterator();
        }

        @Override
        public String toString() {
            return real.toString();
        }
    }

    private static final class RecordingProvider extends FileSystemProvider {
        final RecordingFileSystem fs;
        final FileSystemProvider real;

        RecordingProvider(RecordingFileSystem fs) {
            this.fs = fs;
            this.real = fs.real.provider();
        }

        private static Path u(Path p) {
            return RecordingFileSystem.unwrap(p);
        }

        @Override
        public String getScheme() {
            return "recording";
        }

        @Override
        public FileSystem newFileSystem(URI uri, Map<String, ?> env) {
            throw new UnsupportedOperationException();
        }

        @Override
        public FileSystem getFileSystem(URI uri) {
            return fs;
        }

        @Override
        public Path getPath(URI uri) {
            return fs.wrap(real.getPath(uri));
        }

        @Override
        public SeekableByteChannel newByteChannel(Path path, Set<? extends OpenOption> options,
                FileAttribute<?>... attrs) throws IOException {
            return newFileChannel(path, options, attrs);
        }

        @Override
        public FileChannel newFileChannel(Path path, Set<? extends OpenOption> options, FileAttribute<?>... attrs)
                throws IOException {
            return new RecordingChannel(real.newFileChannel(u(path), options, attrs),
                    u(path).getFileName().toString(), fs.events);
        }

        @Override
        public DirectoryStream<Path> newDirectoryStream(Path dir, DirectoryStream.Filter<? super Path> filter)
                throws IOException {
            DirectoryStream<Path> s = real.newDirectoryStream(u(dir), p -> filter.accept(fs.wrap(p)));
            return new DirectoryStream<>() {
                @Override
                public Iterator<Path> iterator() {
                    Iterator<Path> it = s.iterator();
                    return new Iterator<>() {
                        @Override
                        public boolean hasNext() {
                            return it.hasNext();
                        }

                        @Override
                        public Path next() {
                            return fs.wrap(it.next());
                        }
                    };
                }

                @Override
                public void close() throws IOException {
                    s.close();
                }
            };
        }

        @Override
        public void createDirectory(Path dir, FileAttribute<?>... attrs) throws IOException {
            real.createDirectory(u(dir), attrs);
        }

        @Override
        public void delete(Path path) throws IOException {
            real.delete(u(path));
        }

        @Override
        public boolean deleteIfExists(Path path) throws IOException {
            return real.deleteIfExists(u(path));
        }

        @Override
        public void copy(Path source, Path target, CopyOption... options) throws IOException {
            real.copy(u(source), u(target), options);
        }

        @Override
        public void move(Path source, Path target, CopyOption... options) throws IOException {
            fs.events.add("move " + u(source).getFileName() + " -> " + u(target).getFileName());
            real.move(u(source), u(target), options);
        }

        @Override
        public boolean isSameFile(Path path, Path path2) throws IOException {
            return real.isSameFile(u(path), u(path2));
        }

        @Override
        public boolean isHidden(Path path) throws IOException {
            return real.isHidden(u(path));
        }

        @Override
        public FileStore getFileStore(Path path) throws IOException {
            return real.getFileStore(u(path));
        }

        @Override
        public void checkAccess(Path path, AccessMode... modes) throws IOException {
            real.checkAccess(u(path), modes);
        }

        @Override
        public <V extends FileAttributeView> V getFileAttributeView(Path path, Class<V> type,
                LinkOption... options) {
            return real.getFileAttributeView(u(path), type, options);
        }

        @Override
        public <A extends BasicFileAttributes> A readAttributes(Path path, Class<A> type, LinkOption... options)
                throws IOException {
            return real.readAttributes(u(path), type, options);
        }

        @Override
        public Map<String, Object> readAttributes(Path path, String attributes, LinkOption... options)
                throws IOException {
            return real.readAttributes(u(path), attributes, options);
        }

        @Override
        public void setAttribute(Path path, String attribute, Object value, LinkOption... options)
                throws IOException {
            real.setAttribute(u(path), attribute, value, options);
        }
    }

    /** A file's channel that records its writes and forces by the file's name. */
    private static final class RecordingChannel extends FileChannel {
        final FileChannel real;
        final String name;
        final List<String> events;

        RecordingChannel(FileChannel real, String name, List<String> events) {
            this.real = real;
            this.name = name;
            this.events = events;
        }

        @Override
        public int read(ByteBuffer dst) throws IOException {
            return real.read(dst);
        }

        @Override
        public long read(ByteBuffer[] dsts, int offset, int length) throws IOException {
            return real.read(dsts, offset, length);
        }

        @Override
        public int write(ByteBuffer src) throws IOException {
            events.add("write " + name);
            return real.write(src);
        }

        @Override
        public long write(ByteBuffer[] srcs, int offset, int length) throws IOException {
            events.add("write " + name);
            return real.write(srcs, offset, length);
        }

        @Override
        public long position() throws IOException {
            return real.position();
        }

        @Override
        public FileChannel position(long newPosition) throws IOException {
            real.position(newPosition);
            return this;
        }

        @Override
        public long size() throws IOException {
            return real.size();
        }

        @Override
        public FileChannel truncate(long size) throws IOException {
            real.truncate(size);
            return this;
        }

        @Override
        public void force(boolean metaData) throws IOException {
            events.add("force " + name);
            real.force(metaData);
        }

        @Override
        public long transferTo(long position, long count, WritableByteChannel target) throws IOException {
            return real.transferTo(position, count, target);
        }

        @Override
        public long transferFrom(ReadableByteChannel src, long position, long count) throws IOException {
            events.add("write " + name);
            return real.transferFrom(src, position, count);
        }

        @Override
        public int read(ByteBuffer dst, long position) throws IOException {
            return real.read(dst, position);
        }

        @Override
        public int write(ByteBuffer src, long position) throws IOException {
            events.add("write " + name);
            return real.write(src, position);
        }

        @Override
        public MappedByteBuffer map(MapMode mode, long position, long size) throws IOException {
            return real.map(mode, position, size);
        }

        @Override
        public FileLock lock(long position, long size, boolean shared) throws IOException {
            return real.lock(position, size, shared);
        }

        @Override
        public FileLock tryLock(long position, long size, boolean shared) throws IOException {
            return real.tryLock(position, size, shared);
        }

        @Override
        protected void implCloseChannel() throws IOException {
            real.close();
        }
    }
}
