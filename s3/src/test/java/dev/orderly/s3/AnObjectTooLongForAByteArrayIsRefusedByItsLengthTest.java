package dev.orderly.s3;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import software.amazon.awssdk.core.sync.ResponseTransformer;
import software.amazon.awssdk.http.AbortableInputStream;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.GetObjectRequest;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;

/**
 * Regression: {@link S3OutputStore#read} read an object of any length into memory, with the SDK's
 * {@code getObjectAsBytes}: an object longer than the longest {@code byte[]} (a segment output over 2 GiB, written by
 * another tool or a tier2 of another version) ended in an {@code OutOfMemoryError}, which the engine takes for the VM's
 * own and throws out of {@code Engine.run} as itself, naming neither the segment nor the size. {@code FileOutputStore}
 * refuses such a file by its size; the S3 store now refuses such an object by its {@code Content-Length}, before
 * reading its body, with an {@link IOException} naming the bucket, the key and the length.
 *
 * <p>The client here answers the GET of a 3 GiB object with a body that hands out at most 1 MiB: a store that reads
 * past that has begun to take the object into memory.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class AnObjectTooLongForAByteArrayIsRefusedByItsLengthTest {

    private static final long THREE_GIB = 3L << 30;
    private static final int READABLE = 1 << 20;

    /** A body of zeros that fails once more than {@link #READABLE} bytes were read from it. */
    private static final class ShortBody extends InputStream {
        final AtomicLong read = new AtomicLong();

        @Override
        public int read() throws IOException {
            byte[] one = new byte[1];
            return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            if (read.get() >= READABLE) {
                throw new IOException("the test's body: the store read past 1 MiB of a 3 GiB object");
            }
            int n = (int) Math.min(len, READABLE - read.get());
            java.util.Arrays.fill(b, off, off + n, (byte) 0);
            read.addAndGet(n);
            return n;
        }
    }

    /** Answers every GET with a response of {@code length} bytes whose body is {@code body}. */
    private static S3Client answering(long length, InputStream body) {
        return new S3Client() {
            @Override
            public <T> T getObject(GetObjectRequest request, ResponseTransformer<GetObjectResponse, T> transformer) {
                try {
                    return transformer.transform(GetObjectResponse.builder().contentLength(length).build(),
                            AbortableInputStream.create(body));
                } catch (RuntimeException e) {
                    throw e;
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            }

            @Override
            public String serviceName() {
                return "s3";
            }

            @Override
            public void close() {
            }
        };
    }

    @Test
    void anObjectOverTheLongestByteArrayIsAnIoExceptionNamingItsKeyAndLength() {
        ShortBody body = new ShortBody();
        S3OutputStore store = S3OutputStore.builder().client(answering(THREE_GIB, body)).bucket("outputs")
                .prefix("r-1/").build();
        IOException e = assertThrows(IOException.class, () -> store.read(7));
        assertTrue(e.getMessage().contains("s3://outputs/r-1/segment-00000000000000000007.out")
                && e.getMessage().contains(Long.toString(THREE_GIB)), e.getMessage());
        assertTrue(body.read.get() < READABLE, "the store read " + body.read.get() + " bytes of the body");
    }

    @Test
    void anObjectOfOrdinaryLengthIsStillReadWhole() throws IOException {
        S3OutputStore store = S3OutputStore.builder().client(answering(3, new java.io.ByteArrayInputStream(
                new byte[] {1, 2, 3}))).bucket("outputs").build();
        Optional<byte[]> read = store.read(0);
        assertEquals(3, read.orElseThrow().length);
    }
}
