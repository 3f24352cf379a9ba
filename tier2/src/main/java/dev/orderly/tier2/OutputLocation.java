package dev.orderly.tier2;

import dev.orderly.api.Tier2Exception;
import dev.orderly.engine.FileOutputStore;
import dev.orderly.grpc.JobOutputs;
import dev.orderly.s3.S3OutputStore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.UUID;
import java.util.regex.Pattern;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * Where a tier2 process writes its jobs' outputs ({@code --outputs}). Request {@code R}'s outputs go to a store of
 * their own under the root, so that a tier1 reads request {@code R} from that store alone:
 *
 * <ul>
 *   <li>{@code --outputs=DIR}: {@code DIR/R/}, a {@link FileOutputStore} (a file system both sides reach);
 *   <li>{@code --outputs=s3://BUCKET/PREFIX}: an {@link S3OutputStore} on {@code BUCKET} with the key prefix
 *       {@code PREFIX/R/} (a {@code /} is added after a non-empty {@code PREFIX} that lacks one), so segment 12 of
 *       request {@code r-1} is {@code PREFIX/r-1/segment-00000000000000000012.out}.
 * </ul>
 *
 * The request id names that place, so it must be 1..100 of {@code [A-Za-z0-9._-]} and not {@code .} or {@code ..};
 * another is FATAL for the job (no retry can fix it).
 */
record OutputLocation(Path directory, String bucket, String prefix) {

    private static final int MAX_ID_LENGTH = 100;

    private static final Pattern LOOKS_LIKE_A_URI = Pattern.compile("[A-Za-z][A-Za-z0-9+.-]*:/");

    private static final Pattern SAFE_ID = Pattern.compile("[A-Za-z0-9._-]{1," + MAX_ID_LENGTH + "}");

    /**
     * Reads {@code --outputs}.
     *
     * @throws IllegalArgumentException naming the value if it is neither a directory (there, or to be made) nor
     *         {@code s3://BUCKET[/PREFIX]} (the scheme in any case); any other {@code SCHEME:/...} is refused too
     */
    static OutputLocation parse(String value) {
        if (value.isBlank()) {
            throw new IllegalArgumentException("--outputs must be a directory or s3://BUCKET/PREFIX, was '" + value
                    + "'");
        }
        boolean s3 = value.regionMatches(true, 0, "s3://", 0, "s3://".length()); // schemes know no case
        // A mistyped scheme (s3:/b/p, gs://b/p) would be a local directory of that name, where no tier1 looks.
        if (!s3 && (LOOKS_LIKE_A_URI.matcher(value).lookingAt() || value.regionMatches(true, 0, "s3:", 0, 3))) {
            throw new IllegalArgumentException("--outputs=" + value + " looks like a URI, but only s3:// URIs or local"
                    + " directories are taken (s3://BUCKET/PREFIX, or DIR)");
        }
        if (!s3) {
            return new OutputLocation(directory(value), null, null);
        }
        String form = "--outputs=" + value + " must be s3://BUCKET/PREFIX (a bucket name, then an optional key prefix)";
        URI uri;
        try {
            uri = new URI(value);
        } catch (URISyntaxException e) {
            // Said in words, counted from 1: the parser's "Expected authority at index 5: s3://" speaks Java.
            if (value.length() == "s3://".length() || value.charAt("s3://".length()) == '/') {
                throw new IllegalArgumentException(form);
            }
            throw new IllegalArgumentException(form + ", a URL: character " + (e.getIndex() + 1) + " cannot be in one");
        }
        // The authority, not the host: Java reads no host in logs.2024 (a last label starting with a digit is no
        // host name), though S3 takes it. A port or a user is no bucket name, so the bucket's own rule refuses them.
        String bucket = uri.getRawAuthority();
        if (bucket == null || uri.getQuery() != null || uri.getFragment() != null) {
            throw new IllegalArgumentException(form);
        }
        try {
            S3OutputStore.builder().bucket(bucket);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--outputs=" + value + ": " + e.getMessage());
        }
        String prefix = uri.getPath() == null ? "" : uri.getPath().replaceFirst("^/+", "");
        if (!prefix.isEmpty() && !prefix.endsWith("/")) {
            prefix += "/";
        }
        // Each job's store takes prefix + R + "/": held to S3OutputStore's rule with the longest R now, else every job
        // of a request would throw from the builder, a failure the tier1 retries for ever.
        try {
            S3OutputStore.builder().prefix(prefix + "r".repeat(MAX_ID_LENGTH) + "/");
        } catch (IllegalArgumentException e) {
            String rule = e.getMessage();
            int was = rule.indexOf(", was '"); // the rest quotes the trial prefix, not the user's
            throw new IllegalArgumentException("--outputs=" + value + ": the key prefix is too long ("
                    + prefix.getBytes(StandardCharsets.UTF_8).length + " bytes of UTF-8, then a request id of up to "
                    + MAX_ID_LENGTH + " and '/': "
                    + (was < 0 ? rule : rule.substring(0, was)) + ")");
        }
        return new OutputLocation(null, bucket, prefix);
    }

    /**
     * {@code value} as a directory that is there or can be made: a file where it, or a directory above it, should be
     * would fail every job's write, and the tier1 would retry them for ever. One not there yet is left to the first
     * write to make, as before.
     */
    private static Path directory(String value) {
        Path directory;
        try {
            directory = Path.of(value);
        } catch (InvalidPathException e) {
            throw new IllegalArgumentException("--outputs=" + value + " is no path: " + e.getMessage());
        }
        Path existing = directory.toAbsolutePath();
        while (existing != null && !Files.exists(existing, LinkOption.NOFOLLOW_LINKS)) {
            existing = existing.getParent();
        }
        boolean itself = existing != null && existing.equals(directory.toAbsolutePath());
        if (existing != null && !Files.isDirectory(existing)) {
            throw new IllegalArgumentException(itself
                    ? "--outputs=" + value + " is not a directory; give a directory, or one that does not exist yet"
                    : "--outputs=" + value + ": " + existing + " is not a directory, so none can be made under it");
        }
        if (existing != null) {
            writable(value, existing, itself);
        }
        return directory;
    }

    /**
     * Makes and deletes a file in {@code existing}, where the first write makes its directories: one that can not be
     * written (a read-only file system, another user's mount) was taken, and the tier2 listened, said SERVING and
     * failed every job's write. Modes alone do not tell (root ignores them, a read-only mount has its own).
     *
     * @param itself whether {@code existing} is the directory {@code value} names, not one above it
     */
    private static void writable(String value, Path existing, boolean itself) {
        Path probe = existing.resolve(".orderly-tier2-" + UUID.randomUUID() + ".probe");
        try {
            Files.createFile(probe);
            Files.delete(probe);
        } catch (IOException e) {
            String why = switch (e) {
                case AccessDeniedException x -> "permission denied";
                case FileSystemException x when x.getReason() != null -> x.getReason().strip();
                default -> "no file can be made there";
            };
            throw new IllegalArgumentException("--outputs=" + value + (itself ? " can not be written" : ": "
                    + existing + " can not be written, so nothing can be made under it") + " (" + why
                    + "); give a directory this process can write");
        }
    }

    /** True for {@code s3://} outputs. */
    boolean isS3() {
        return bucket != null;
    }

    /** The outputs in a directory: request {@code R} in {@code directory/R/}. */
    JobOutputs inDirectory() {
        Path root = directory;
        return (requestId, segment, output) -> {
            Path requestDirectory = root.resolve(checked(requestId));
            FileOutputStore store;
            try {
                store = new FileOutputStore(requestDirectory);
            } catch (UncheckedIOException e) {
                // A store that fails throws IOException (JobContext.writeOutput): a worker that catches it to handle a
                // failed write must meet this one too, met when a request's first write makes its directory.
                throw new IOException(e.getMessage(), e.getCause());
            }
            store.write(segment, output);
        };
    }

    /** The outputs in the bucket: request {@code R} under {@code prefix + R + "/"}. */
    JobOutputs inBucket(S3Client client) {
        return (requestId, segment, output) -> S3OutputStore.builder().client(client).bucket(bucket)
                .prefix(prefix + checked(requestId) + "/").build().write(segment, output);
    }

    /**
     * @return {@code requestId}, if it can name a directory or a key prefix
     * @throws Tier2Exception FATAL if not: no retry can fix it
     */
    static String checked(String requestId) throws Tier2Exception {
        if (!SAFE_ID.matcher(requestId).matches() || requestId.equals(".") || requestId.equals("..")) {
            throw Tier2Exception.fatal("request id must be 1..100 of [A-Za-z0-9._-] to name where its outputs go,"
                    + " was '" + requestId + "'", null);
        }
        return requestId;
    }

    @Override
    public String toString() {
        return isS3() ? "s3://" + bucket + "/" + prefix : directory.toString();
    }
}
