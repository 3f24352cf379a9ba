package dev.orderly.engine.regressions;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.orderly.engine.FileOutputStore;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Regression: {@link FileOutputStore#write} made its temporary file with {@code Files.createTempFile}, whose file is
 * {@code rw-------} whatever the umask, and moved it into place as it was: every output was readable by its writer's
 * user alone. The tier2 guide puts {@code --outputs=DIR} on "a file system both sides reach"; a tier1 running as
 * another user (another pod, another service account) could not read one output and failed the request with "can not
 * read …: AccessDeniedException". An output now gets the permissions of any file created in the directory.
 */
class AFileStoresOutputIsReadableAsAnyFileWrittenThereTest {

    @Test
    void anOutputHasThePermissionsOfAFileCreatedThereTheUsualWay(@TempDir Path dir) throws Exception {
        assumeTrue(FileSystems.getDefault().supportedFileAttributeViews().contains("posix"), "a POSIX file system");
        FileOutputStore store = new FileOutputStore(dir);
        store.write(3, new byte[] {1, 2, 3});
        Path usual = Files.write(dir.resolve("usual"), new byte[] {1, 2, 3}); // the umask's permissions
        Set<PosixFilePermission> expected = Files.getPosixFilePermissions(usual);

        assertEquals(expected, Files.getPosixFilePermissions(store.pathOf(3)),
                "the permissions of segment 3's output, next to a file written with Files.write");
        store.write(3, new byte[] {4}); // a replacement too
        assertEquals(expected, Files.getPosixFilePermissions(store.pathOf(3)), "after a second write");
    }
}
