package dev.orderly.sim.tier2;

import dev.orderly.s3.S3Clients;
import dev.orderly.sim.cli.DurationConverter;
import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * An S3Proxy child process ({@link S3ProxyMain}) on 127.0.0.1 for {@code orderly fleet --store=s3}, with one bucket
 * made. S3Proxy's jars are not in the simulator's jar (they are ~80 MB): the build writes their class path into the
 * resource {@value #CLASSPATH_RESOURCE}, from the local Maven repository, and the child runs with it. {@link #close()}
 * stops the child (SIGTERM, then SIGKILL) and is safe to call from a shutdown hook. Thread-safe.
 */
public final class S3ProxyProcess implements AutoCloseable {

    static final String CLASSPATH_RESOURCE = "s3proxy.classpath";
    /** The access key the server accepts; the tier2 processes get it through the AWS SDK's environment variables. */
    public static final String IDENTITY = "orderly-fleet";
    /** The secret key the server accepts. */
    public static final String CREDENTIAL = "orderly-fleet-secret";

    private final Process process;
    private final URI endpoint;
    private final S3Client client;

    private S3ProxyProcess(Process process, URI endpoint) {
        this.process = process;
        this.endpoint = endpoint;
        this.client = S3Clients.create(endpoint, StaticCredentialsProvider.create(
                AwsBasicCredentials.create(IDENTITY, CREDENTIAL)));
    }

    /**
     * Starts S3Proxy over {@code dir}, waits (bounded) until it serves, and makes {@code bucket}.
     *
     * @throws IOException if its jars are missing, or it does not start in time (its log is {@code logs/s3proxy.log})
     */
    public static S3ProxyProcess start(Path dir, String bucket, Path logs, Duration startTimeout)
            throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(ProcessHandle.current().info().command().orElse(
                Path.of(System.getProperty("java.home"), "bin", "java").toString()));
        command.add("--sun-misc-unsafe-memory-access=allow"); // Guice, inside jclouds
        command.add("-Dorg.slf4j.simpleLogger.defaultLogLevel=warn");
        command.add("-cp");
        command.add(System.getProperty("java.class.path") + File.pathSeparator + s3proxyClassPath());
        command.add(S3ProxyMain.class.getName());
        command.add(dir.toString());
        command.add(IDENTITY);
        command.add(CREDENTIAL);
        Path log = logs.resolve("s3proxy.log");
        Process p = ChildProcesses.ofThisJvm().start(
                new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.appendTo(log.toFile())));
        S3ProxyProcess started = null;
        try {
            int port = awaitPort(p, log, startTimeout);
            started = new S3ProxyProcess(p, URI.create("http://127.0.0.1:" + port));
            started.client.createBucket(r -> r.bucket(bucket));
            return started;
        } catch (IOException | InterruptedException | RuntimeException e) {
            if (started != null) {
                started.close();
            } else {
                stop(p);
            }
            throw e;
        }
    }

    private static String s3proxyClassPath() throws IOException {
        String cp;
        try (InputStream in = S3ProxyProcess.class.getResourceAsStream(CLASSPATH_RESOURCE)) {
            if (in == null) {
                throw new IOException("--store=s3 needs S3Proxy's class path (" + CLASSPATH_RESOURCE + "), which the"
                        + " build writes: build the simulator with mvn -pl sim -am package");
            }
            cp = new String(in.readAllBytes(), StandardCharsets.UTF_8).strip();
        }
        for (String jar : cp.split(File.pathSeparator)) {
            if (!Files.isRegularFile(Path.of(jar))) {
                throw new IOException("--store=s3 needs S3Proxy's jars, and " + jar + " is missing: build the"
                        + " simulator again with mvn -pl sim -am package");
            }
        }
        return cp;
    }

    private static int awaitPort(Process p, Path log, Duration timeout) throws IOException, InterruptedException {
        CompletableFuture<String> first = new CompletableFuture<>();
        Thread.ofVirtual().name("s3proxy-stdout").start(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(),
                    StandardCharsets.UTF_8))) {
                first.complete(r.readLine());
                while (r.readLine() != null) {
                    // drained
                }
            } catch (IOException e) {
                first.completeExceptionally(e);
            }
        });
        String line;
        try {
            line = first.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            throw new IOException("S3Proxy did not say it listens within " + DurationConverter.format(timeout)
                    + " (see " + log + ")");
        } catch (ExecutionException e) {
            throw new IOException("S3Proxy ended before it listened (see " + log + ")", e.getCause());
        }
        if (line == null || !line.startsWith("listening on 127.0.0.1:")) {
            throw new IOException("S3Proxy said '" + line + "' instead of its port (see " + log + ")");
        }
        return Integer.parseInt(line.substring(line.lastIndexOf(':') + 1).strip());
    }

    /** {@code http://127.0.0.1:<port>}. */
    public URI endpoint() {
        return endpoint;
    }

    /** A client with the server's keys; closed with this. */
    public S3Client client() {
        return client;
    }

    /** What a tier2 process needs in its environment to reach the server through the AWS SDK's usual chain. */
    public Map<String, String> environment() {
        return Map.of("AWS_ACCESS_KEY_ID", IDENTITY, "AWS_SECRET_ACCESS_KEY", CREDENTIAL,
                "AWS_EC2_METADATA_DISABLED", "true");
    }

    /** True while the child is alive. */
    public boolean isAlive() {
        return process.isAlive();
    }

    /** Stops the child and closes the client; idempotent, bounded. */
    @Override
    public void close() {
        client.close();
        try {
            stop(process);
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }

    private static void stop(Process p) throws InterruptedException {
        p.destroy();
        if (!p.waitFor(15, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            p.waitFor(5, TimeUnit.SECONDS);
        }
    }
}
