package dev.orderly.s3;

import java.io.IOException;
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
 * A real S3 API server for tests: S3Proxy in this JVM, over jclouds' filesystem backend in {@code dir}, on a free
 * loopback port, with AWS signature V2/V4 authorization on (a request signed with other credentials is refused).
 * Starting it takes seconds (jclouds and Jetty start up): start one per test class, and {@link #close()} it in
 * {@code finally} or {@code @AfterAll}.
 */
public final class S3ProxyFixture implements AutoCloseable {

    /** The access key the server accepts. */
    public static final String IDENTITY = "orderly-test";
    /** The secret key the server accepts. */
    public static final String CREDENTIAL = "orderly-test-secret";

    private final S3Proxy proxy;
    private final BlobStoreContext context;
    private final URI endpoint;
    private final S3Client client;

    private S3ProxyFixture(S3Proxy proxy, BlobStoreContext context) {
        this.proxy = proxy;
        this.context = context;
        this.endpoint = URI.create("http://127.0.0.1:" + proxy.getPort());
        this.client = S3Clients.create(endpoint, credentials());
    }

    /** Starts a server keeping its buckets under {@code dir}. */
    public static S3ProxyFixture start(Path dir) throws Exception {
        Files.createDirectories(dir);
        Properties backend = new Properties();
        backend.setProperty("jclouds.filesystem.basedir", dir.toString());
        BlobStoreContext context = ContextBuilder.newBuilder("filesystem").overrides(backend)
                .build(BlobStoreContext.class);
        S3Proxy proxy = null;
        try {
            proxy = S3Proxy.builder()
                    .blobStore(context.getBlobStore())
                    .endpoint(URI.create("http://127.0.0.1:0"))
                    .awsAuthentication(AuthenticationType.AWS_V2_OR_V4, IDENTITY, CREDENTIAL)
                    .build();
            proxy.start(); // returns once Jetty serves
            if (!"STARTED".equals(proxy.getState())) {
                throw new IllegalStateException("S3Proxy did not start: " + proxy.getState());
            }
            return new S3ProxyFixture(proxy, context);
        } catch (Exception | Error e) {
            if (proxy != null) {
                proxy.stop();
            }
            context.close();
            throw e;
        }
    }

    /** The server's endpoint, {@code http://127.0.0.1:<port>}. */
    public URI endpoint() {
        return endpoint;
    }

    /** Credentials the server accepts. */
    public static StaticCredentialsProvider credentials() {
        return StaticCredentialsProvider.create(AwsBasicCredentials.create(IDENTITY, CREDENTIAL));
    }

    /** A client for this server, made by {@link S3Clients#create}; closed with the fixture. */
    public S3Client client() {
        return client;
    }

    /** Creates {@code bucket} (empty). */
    public void createBucket(String bucket) {
        client.createBucket(r -> r.bucket(bucket));
    }

    /** Stops the server and closes its client. */
    @Override
    public void close() throws IOException {
        try {
            client.close();
            proxy.stop();
        } catch (Exception e) {
            throw new IOException("S3Proxy on " + endpoint + " did not stop", e);
        } finally {
            context.close();
        }
    }
}
