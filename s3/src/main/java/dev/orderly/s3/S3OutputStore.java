package dev.orderly.s3;

import dev.orderly.api.OutputStore;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.function.Supplier;
import software.amazon.awssdk.core.exception.AbortedException;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.core.sync.ResponseTransformer;
import software.amazon.awssdk.http.AbortableInputStream;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;
import software.amazon.awssdk.services.s3.model.NoSuchBucketException;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * An {@link OutputStore} in an S3 bucket, for a tier1 and tier2 instances on many machines: one object per segment,
 * under {@code prefix + "segment-" + %020d + ".out"} (twenty digits, so the keys of a request list in segment order).
 *
 * <p>{@link #write} is one {@code PUT}: S3 makes an object visible whole or not at all, so a reader never sees part of
 * an output. {@link #read} is one {@code GET}: a missing key (404) is empty; any other failure (the bucket missing,
 * access denied, the endpoint unreachable, a timeout after the client's retries) is an {@link IOException} whose
 * message names the bucket and the key, as is an object longer than the longest {@code byte[]}
 * ({@code Integer.MAX_VALUE - 8} bytes), refused by its length before its body is read. {@link #contains} is one
 * {@code HEAD}. An interrupt while a call is under way ends the caller's wait at once with an
 * {@link InterruptedIOException}, the thread's interrupt flag set; the HTTP call itself (the SDK's client answers no
 * interrupt) ends on a thread of its own, at the latest at the client's call timeout, so an interrupted write may
 * still land.
 *
 * <p>On AWS S3 a reader needs {@code s3:ListBucket} on the bucket as well as {@code s3:GetObject} on the keys: without
 * it S3 answers a missing key with 403, not 404, and {@link #read} and {@link #contains} fail with "access denied"
 * where the engine would re-run the segment.
 *
 * <p>Timeouts and retries are the {@link S3Client}'s: {@link S3Clients#create} makes one with both set explicitly.
 * This store does not close the client. This class is thread-safe (the SDK's client is).
 */
public final class S3OutputStore implements OutputStore {

    private final S3Client client;
    private final String bucket;
    private final String prefix;

    private S3OutputStore(Builder b) {
        this.client = b.client;
        this.bucket = b.bucket;
        this.prefix = b.prefix;
    }

    /** A builder; {@link Builder#client} and {@link Builder#bucket} are required. */
    public static Builder builder() {
        return new Builder();
    }

    /** The bucket. */
    public String bucket() {
        return bucket;
    }

    /** The prefix of every key, possibly empty. */
    public String prefix() {
        return prefix;
    }

    /**
     * The key of the output of {@code segment}: {@code prefix + "segment-" + %020d + ".out"}.
     *
     * @throws IllegalArgumentException if {@code segment < 0}
     */
    public String keyOf(long segment) {
        if (segment < 0) {
            throw new IllegalArgumentException("segment must be >= 0, was " + segment);
        }
        return prefix + String.format(Locale.ROOT, "segment-%020d.out", segment);
    }

    /**
     * Stores {@code output} as the output of {@code segment}, in one {@code PUT}, replacing any earlier one.
     *
     * @throws IOException naming the bucket and the key if the write fails
     */
    public void write(long segment, byte[] output) throws IOException {
        Objects.requireNonNull(output, "output");
        String key = keyOf(segment);
        try {
            interruptibly("write", key, () -> client.putObject(r -> r.bucket(bucket).key(key)
                    .contentLength((long) output.length), RequestBody.fromBytes(output)));
        } catch (SdkException e) {
            throw failure("write", key, e);
        }
    }

    @Override
    public Optional<byte[]> read(long segment) throws IOException {
        String key = keyOf(segment);
        Body body;
        try {
            body = interruptibly("read", key,
                    () -> client.getObject(r -> r.bucket(bucket).key(key), S3OutputStore::body));
        } catch (NoSuchKeyException e) {
            return Optional.empty();
        } catch (NoSuchBucketException e) {
            throw failure("read", key, e);
        } catch (S3Exception e) {
            if (e.statusCode() == 404 && !isNoSuchBucket(e)) {
                return Optional.empty();
            }
            throw failure("read", key, e);
        } catch (SdkException e) {
            throw failure("read", key, e);
        }
        if (body.bytes() == null) {
            // getObjectAsBytes would read it all and end in an OutOfMemoryError, which the engine throws as the VM's
            throw new IOException("can not read s3://" + bucket + "/" + key + " (bucket " + bucket + ", key " + key
                    + "): it holds " + body.length() + " bytes, more than one output can have (" + MAX_OUTPUT_BYTES
                    + ", the longest byte[])");
        }
        return Optional.of(body.bytes());
    }

    /** The longest output an object may hold: the longest {@code byte[]} the JVM makes. */
    private static final long MAX_OUTPUT_BYTES = Integer.MAX_VALUE - 8;

    /** An object's body, or, for one too long for a {@code byte[]}, its length alone. */
    private record Body(byte[] bytes, long length) {
    }

    /** Reads a GET's body as the SDK's {@code toBytes} does, unless its length says it can not fit a byte[]. */
    private static Body body(GetObjectResponse response, AbortableInputStream in) throws Exception {
        Long length = response.contentLength();
        if (length != null && length > MAX_OUTPUT_BYTES) {
            in.abort(); // the rest of the body is not wanted: the connection is not reused
            return new Body(null, length);
        }
        return new Body(ResponseTransformer.<GetObjectResponse>toBytes().transform(response, in).asByteArrayUnsafe(),
                length == null ? -1 : length);
    }

    /**
     * Whether the output of {@code segment} is stored, by one {@code HEAD} (no body is read). A {@code HEAD} answer has
     * no error code, so a missing bucket reads as {@code false} here; {@link #read} tells the two apart.
     *
     * @throws IOException naming the bucket and the key for anything but a 404
     */
    public boolean contains(long segment) throws IOException {
        String key = keyOf(segment);
        try {
            interruptibly("look up", key, () -> client.headObject(r -> r.bucket(bucket).key(key)));
            return true;
        } catch (NoSuchKeyException e) {
            return false;
        } catch (S3Exception e) {
            if (e.statusCode() == 404) {
                return false;
            }
            throw failure("look up", key, e);
        } catch (SdkException e) {
            throw failure("look up", key, e);
        }
    }

    /**
     * Runs {@code call} on a virtual thread of its own and waits for it, so that an interrupt ends the wait at once:
     * the SDK's URL-connection client answers none (its socket reads block on), and its timeout handling clears the
     * flag.
     * Interrupted, the caller gets an {@link InterruptedIOException} with its flag set; the call, interrupted too,
     * ends on its own thread, at the latest at the client's call timeout. What the call throws is thrown as itself.
     */
    private <T> T interruptibly(String what, String key, Supplier<T> call) throws InterruptedIOException {
        if (Thread.currentThread().isInterrupted()) {
            throw interrupted(what, key, null);
        }
        FutureTask<T> task = new FutureTask<>(call::get);
        Thread thread = Thread.ofVirtual().name("s3-" + what.replace(' ', '-') + "-" + key).start(task);
        try {
            return task.get();
        } catch (InterruptedException e) {
            thread.interrupt();
            throw interrupted(what, key, e);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof RuntimeException r) {
                throw r;
            }
            if (cause instanceof Error err) {
                throw err;
            }
            throw new IllegalStateException(cause);
        }
    }

    private InterruptedIOException interrupted(String what, String key, Throwable cause) {
        Thread.currentThread().interrupt();
        InterruptedIOException interrupted = new InterruptedIOException("interrupted while trying to " + what
                + " s3://" + bucket + "/" + key);
        interrupted.initCause(cause);
        return interrupted;
    }

    private static boolean isNoSuchBucket(S3Exception e) {
        return e.awsErrorDetails() != null && "NoSuchBucket".equals(e.awsErrorDetails().errorCode());
    }

    private IOException failure(String what, String key, SdkException e) {
        String where = "s3://" + bucket + "/" + key;
        if (e instanceof AbortedException || Thread.currentThread().isInterrupted()
                || e.getCause() instanceof InterruptedException) {
            return interrupted(what, key, e);
        }
        String detail = e instanceof S3Exception s3 ? "HTTP " + s3.statusCode()
                + (s3.awsErrorDetails() != null && s3.awsErrorDetails().errorCode() != null
                        ? " " + s3.awsErrorDetails().errorCode() : "")
                // A HEAD's 403 has no error code, a GET's may be SignatureDoesNotMatch: said as the class says.
                + (s3.statusCode() == 403 ? " (access denied)" : "") + ": " + firstLine(s3.getMessage())
                : firstLine(String.valueOf(e.getMessage()));
        return new IOException("can not " + what + " " + where + " (bucket " + bucket + ", key " + key + "): "
                + detail, e);
    }

    private static String firstLine(String s) {
        int nl = s.indexOf('\n');
        return (nl < 0 ? s : s.substring(0, nl)).strip();
    }

    @Override
    public String toString() {
        return "S3OutputStore[s3://" + bucket + "/" + prefix + "]";
    }

    /** Builds an {@link S3OutputStore}. Not thread-safe. */
    public static final class Builder {
        private S3Client client;
        /** Prefixes S3 keeps for itself: no general purpose bucket is named with one. */
        private static final List<String> RESERVED_PREFIXES = List.of("xn--", "sthree-", "amzn-s3-demo-");

        /** Suffixes S3 keeps for access point aliases and other kinds of bucket. */
        private static final List<String> RESERVED_SUFFIXES = List.of("-s3alias", "--ol-s3", ".mrap", "--x-s3",
                "--table-s3");

        private String bucket;
        private String prefix = "";

        private Builder() {
        }

        /** The client; required. {@link S3Clients#create} makes one with explicit timeouts and retries. */
        public Builder client(S3Client client) {
            this.client = Objects.requireNonNull(client, "client");
            return this;
        }

        /**
         * The bucket; required. Checked against S3's rules for general purpose bucket names: 3..63 of lower-case
         * letters, digits, {@code .} and {@code -}, starting and ending with a letter or digit; no two periods in a
         * row; not formatted as an IP address ({@code 192.168.5.4}); not starting with {@code xn--}, {@code sthree-}
         * or {@code amzn-s3-demo-}; not ending with {@code -s3alias}, {@code --ol-s3}, {@code .mrap}, {@code --x-s3}
         * or {@code --table-s3}.
         *
         * @throws IllegalArgumentException naming the rule broken and the name
         */
        public Builder bucket(String bucket) {
            Objects.requireNonNull(bucket, "bucket");
            String broken = brokenBucketRule(bucket);
            if (broken != null) {
                throw new IllegalArgumentException("bucket must " + broken + ", was '" + bucket + "'");
            }
            this.bucket = bucket;
            return this;
        }

        /**
         * The rule of S3's for general purpose buckets that {@code bucket} breaks, worded to follow "must", or null.
         * Checked here, not left to S3: a name S3 refuses was found only at the bucket's first use, a tier2 start
         * that connected and then failed (exit 1), or every job's write.
         */
        private static String brokenBucketRule(String bucket) {
            if (!bucket.matches("[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]")) {
                return "be 3..63 of [a-z0-9.-], starting and ending with a letter or digit";
            }
            if (bucket.contains("..")) {
                return "not have two periods in a row";
            }
            if (bucket.matches("[0-9]+(\\.[0-9]+){3}")) {
                return "not be formatted as an IP address";
            }
            for (String prefix : RESERVED_PREFIXES) {
                if (bucket.startsWith(prefix)) {
                    return "not start with '" + prefix + "' (S3 keeps it for itself)";
                }
            }
            for (String suffix : RESERVED_SUFFIXES) {
                if (bucket.endsWith(suffix)) {
                    return "not end with '" + suffix + "' (S3 keeps it for itself)";
                }
            }
            return null;
        }

        /**
         * The prefix of every key, taken as it is (give the trailing {@code /} yourself: {@code "requests/r-1/"});
         * default empty. At most 900 bytes of UTF-8, no leading {@code /}.
         */
        public Builder prefix(String prefix) {
            Objects.requireNonNull(prefix, "prefix");
            // Bytes, not characters: S3 takes keys of up to 1024 bytes of UTF-8, and each key adds 32 to the prefix.
            if (prefix.startsWith("/") || prefix.getBytes(StandardCharsets.UTF_8).length > 900) {
                throw new IllegalArgumentException("prefix must not start with '/' and be at most 900 bytes of UTF-8"
                        + " (S3 keys are at most 1024), was '" + prefix + "'");
            }
            this.prefix = prefix;
            return this;
        }

        /** @throws IllegalStateException if the client or the bucket is missing */
        public S3OutputStore build() {
            if (client == null) {
                throw new IllegalStateException("an S3OutputStore needs a client");
            }
            if (bucket == null) {
                throw new IllegalStateException("an S3OutputStore needs a bucket");
            }
            return new S3OutputStore(this);
        }
    }
}
