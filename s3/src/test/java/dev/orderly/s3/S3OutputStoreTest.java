package dev.orderly.s3;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * {@link S3OutputStore} against a real S3 API server (S3Proxy, filesystem backend, signature V4 on, on loopback),
 * started once for the class: the key layout, one PUT per write, 404 as empty, and every other failure an
 * {@link IOException} naming the bucket and the key.
 */
@Timeout(120)
class S3OutputStoreTest {

    // JUnit deletes it after @AfterAll: S3Proxy's buckets do not outlive the test.
    @TempDir
    static Path dir;
    private static S3ProxyFixture s3;

    @BeforeAll
    static void startS3() throws Exception {
        s3 = S3ProxyFixture.start(dir);
        s3.createBucket("outputs");
    }

    @AfterAll
    static void stopS3() throws Exception {
        if (s3 != null) {
            s3.close();
        }
    }

    private static S3OutputStore store(String prefix) {
        return S3OutputStore.builder().client(s3.client()).bucket("outputs").prefix(prefix).build();
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void writeThenReadGivesTheOutputBack() throws Exception {
        S3OutputStore store = store("round-trip/");
        store.write(3, bytes("three"));
        assertArrayEquals(bytes("three"), store.read(3).orElseThrow());
        assertTrue(store.contains(3));
    }

    @Test
    void missingSegmentReadsAsEmptyAndIsNotContained() throws Exception {
        S3OutputStore store = store("missing/");
        assertEquals(Optional.empty(), store.read(41));
        assertFalse(store.contains(41));
    }

    @Test
    void keyIsThePrefixThenTheSegmentInTwentyDigits() throws Exception {
        S3OutputStore store = store("requests/r-1/");
        assertEquals("requests/r-1/segment-00000000000000000012.out", store.keyOf(12));
        store.write(12, bytes("x"));
        store.write(Long.MAX_VALUE, bytes("y"));
        List<String> keys = new ArrayList<>();
        s3.client().listObjectsV2Paginator(r -> r.bucket("outputs").prefix("requests/r-1/")).contents()
                .forEach((S3Object o) -> keys.add(o.key()));
        assertEquals(List.of("requests/r-1/segment-00000000000000000012.out",
                "requests/r-1/segment-09223372036854775807.out"), keys);
    }

    @Test
    void secondWriteReplacesTheFirst() throws Exception {
        S3OutputStore store = store("replace/");
        store.write(0, bytes("first"));
        store.write(0, bytes("second, longer"));
        assertArrayEquals(bytes("second, longer"), store.read(0).orElseThrow());
    }

    @Test
    void emptyAndLargeOutputsRoundTrip() throws Exception {
        S3OutputStore store = store("sizes/");
        byte[] large = new byte[3 * 1024 * 1024 + 17];
        new java.util.Random(1).nextBytes(large);
        store.write(0, new byte[0]);
        store.write(1, large);
        assertArrayEquals(new byte[0], store.read(0).orElseThrow());
        assertArrayEquals(large, store.read(1).orElseThrow());
    }

    @Test
    void prefixesKeepRequestsApart() throws Exception {
        store("a/").write(5, bytes("of a"));
        assertEquals(Optional.empty(), store("b/").read(5));
        assertArrayEquals(bytes("of a"), store("a/").read(5).orElseThrow());
    }

    @Test
    void missingBucketIsAnIOExceptionNamingBucketAndKey() {
        S3OutputStore store = S3OutputStore.builder().client(s3.client()).bucket("no-such-bucket").prefix("p/")
                .build();
        IOException e = assertThrows(IOException.class, () -> store.read(7));
        assertTrue(e.getMessage().contains("no-such-bucket") && e.getMessage().contains(store.keyOf(7)),
                e.getMessage());
        IOException w = assertThrows(IOException.class, () -> store.write(7, bytes("x")));
        assertTrue(w.getMessage().contains("no-such-bucket") && w.getMessage().contains(store.keyOf(7)),
                w.getMessage());
    }

    @Test
    void wrongCredentialsAreAnIOExceptionNamingBucketAndKeyNotEmpty() {
        try (S3Client wrong = S3Clients.create(s3.endpoint(),
                StaticCredentialsProvider.create(AwsBasicCredentials.create(S3ProxyFixture.IDENTITY, "wrong")))) {
            S3OutputStore store = S3OutputStore.builder().client(wrong).bucket("outputs").prefix("auth/").build();
            IOException e = assertThrows(IOException.class, () -> store.read(1));
            assertTrue(e.getMessage().contains("outputs") && e.getMessage().contains(store.keyOf(1))
                    && e.getMessage().contains("403"), e.getMessage());
            assertThrows(IOException.class, () -> store.contains(1));
        }
    }

    @Test
    void unreachableEndpointIsAnIOExceptionNamingBucketAndKey() throws Exception {
        int closedPort;
        try (ServerSocket s = new ServerSocket()) {
            s.bind(new InetSocketAddress("127.0.0.1", 0));
            closedPort = s.getLocalPort();
        }
        try (S3Client nowhere = S3Clients.create(URI.create("http://127.0.0.1:" + closedPort),
                S3ProxyFixture.credentials())) {
            S3OutputStore store = S3OutputStore.builder().client(nowhere).bucket("outputs").build();
            IOException e = assertThrows(IOException.class, () -> store.read(2));
            assertTrue(e.getMessage().contains("outputs") && e.getMessage().contains(store.keyOf(2)), e.getMessage());
        }
    }

    @Test
    void interruptedReadIsAnInterruptedIOExceptionWithTheFlagSet() throws Exception {
        S3OutputStore store = store("interrupt/");
        store.write(0, bytes("x"));
        AtomicReference<Throwable> seen = new AtomicReference<>();
        AtomicReference<Boolean> flag = new AtomicReference<>();
        Thread t = Thread.ofVirtual().unstarted(() -> {
            Thread.currentThread().interrupt(); // interrupted before the call: the SDK must not run it
            try {
                store.read(0);
            } catch (Throwable e) {
                seen.set(e);
            }
            flag.set(Thread.currentThread().isInterrupted());
        });
        t.start();
        t.join(java.time.Duration.ofSeconds(30));
        assertInstanceOf(InterruptedIOException.class, seen.get());
        assertTrue(flag.get(), "interrupt flag lost");
    }

    @Test
    void badBucketOrPrefixIsRejectedNamingIt() {
        IllegalArgumentException b = assertThrows(IllegalArgumentException.class,
                () -> S3OutputStore.builder().bucket("Not_A_Bucket"));
        assertTrue(b.getMessage().contains("Not_A_Bucket"), b.getMessage());
        IllegalArgumentException p = assertThrows(IllegalArgumentException.class,
                () -> S3OutputStore.builder().prefix("/abs"));
        assertTrue(p.getMessage().contains("/abs"), p.getMessage());
        assertThrows(IllegalStateException.class, () -> S3OutputStore.builder().bucket("outputs").build());
        assertThrows(IllegalArgumentException.class, () -> store("").keyOf(-1));
    }
}
