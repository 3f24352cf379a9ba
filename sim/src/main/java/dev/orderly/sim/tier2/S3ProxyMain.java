package dev.orderly.sim.tier2;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.io.PrintWriter;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import org.gaul.s3proxy.AuthenticationType;
import org.gaul.s3proxy.S3Proxy;
import org.jclouds.ContextBuilder;
import org.jclouds.blobstore.BlobStoreContext;

/**
 * A real S3 API server as a child process, for {@code orderly fleet --store=s3}: S3Proxy over jclouds' filesystem
 * backend in {@code DIR}, on a free port of 127.0.0.1, signature V2/V4 authorization on with the given keys. Prints
 * {@code listening on 127.0.0.1:<port>} once it serves, as a tier2 process does, and stops on SIGTERM.
 *
 * <p>Arguments: {@code DIR IDENTITY CREDENTIAL}. Runs with S3Proxy's jars on the class path, which the simulator's
 * jar does not carry (see {@link S3ProxyProcess}).
 */
public final class S3ProxyMain {

    private S3ProxyMain() {
    }

    /** Serves until SIGTERM. */
    public static void main(String[] args) throws Exception {
        if (args.length != 3) {
            System.err.println("s3proxy: arguments are DIR IDENTITY CREDENTIAL");
            System.exit(2);
        }
        Path dir = Files.createDirectories(Path.of(args[0]));
        Properties backend = new Properties();
        backend.setProperty("jclouds.filesystem.basedir", dir.toString());
        BlobStoreContext context = ContextBuilder.newBuilder("filesystem").overrides(backend)
                .build(BlobStoreContext.class);
        S3Proxy proxy = S3Proxy.builder().blobStore(context.getBlobStore())
                .endpoint(URI.create("http://127.0.0.1:0"))
                .awsAuthentication(AuthenticationType.AWS_V2_OR_V4, args[1], args[2])
                .build();
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(Thread.ofPlatform().unstarted(() -> {
            try {
                proxy.stop();
            } catch (Exception e) {
                // stopping anyway
            } finally {
                context.close();
                stopped.countDown();
            }
        }));
        proxy.start();
        PrintWriter out = new PrintWriter(System.out, true, StandardCharsets.UTF_8);
        out.println("listening on 127.0.0.1:" + proxy.getPort());
        stopped.await();
    }
}
