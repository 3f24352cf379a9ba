package dev.orderly.multihost;

import dev.orderly.s3.S3Clients;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;
import org.gaul.s3proxy.AuthenticationType;
import org.gaul.s3proxy.S3Proxy;
import org.jclouds.ContextBuilder;
import org.jclouds.blobstore.BlobStoreContext;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * The store host's process: S3Proxy, a real S3 API server (signature V2/V4 required), on {@code --endpoint} over
 * jclouds' filesystem backend in {@code --dir}, with the bucket {@code --bucket} made. Prints
 * {@code listening on <endpoint>} once the bucket exists; runs until killed. Options {@code --name=value}; the
 * access key pair comes from {@code AWS_ACCESS_KEY_ID} and {@code AWS_SECRET_ACCESS_KEY}, as the clients' does.
 */
public final class S3HostMain {

    private S3HostMain() {
    }

    public static void main(String[] args) throws Exception {
        URI endpoint = null;
        Path dir = null;
        String bucket = null;
        for (String a : args) {
            if (a.startsWith("--endpoint=")) {
                endpoint = URI.create(a.substring("--endpoint=".length()));
            } else if (a.startsWith("--dir=")) {
                dir = Path.of(a.substring("--dir=".length()));
            } else if (a.startsWith("--bucket=")) {
                bucket = a.substring("--bucket=".length());
            } else {
                throw new IllegalArgumentException("unknown option '" + a + "'");
            }
        }
        if (endpoint == null || dir == null || bucket == null) {
            throw new IllegalArgumentException("--endpoint, --dir and --bucket are required");
        }
        String identity = System.getenv("AWS_ACCESS_KEY_ID");
        String credential = System.getenv("AWS_SECRET_ACCESS_KEY");
        Files.createDirectories(dir);
        Properties backend = new Properties();
        backend.setProperty("jclouds.filesystem.basedir", dir.toString());
        BlobStoreContext context = ContextBuilder.newBuilder("filesystem").overrides(backend)
                .build(BlobStoreContext.class);
        S3Proxy proxy = S3Proxy.builder()
                .blobStore(context.getBlobStore())
                .endpoint(endpoint)
                .awsAuthentication(AuthenticationType.AWS_V2_OR_V4, identity, credential)
                .build();
        proxy.start(); // returns once Jetty serves
        try (S3Client client = S3Clients.create(endpoint,
                StaticCredentialsProvider.create(AwsBasicCredentials.create(identity, credential)))) {
            String b = bucket;
            client.createBucket(r -> r.bucket(b));
        }
        System.out.println("listening on " + endpoint);
        System.out.flush();
        Thread.currentThread().join(); // until killed: the test ends this process with its namespace
    }
}
