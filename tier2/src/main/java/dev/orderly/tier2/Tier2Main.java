package dev.orderly.tier2;

import dev.orderly.grpc.JobWorker;
import dev.orderly.grpc.Tier2Server;
import dev.orderly.s3.S3Clients;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.jar.Manifest;
import java.util.regex.Pattern;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;
import org.slf4j.bridge.SLF4JBridgeHandler;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * One tier2 process: a {@link Tier2Server} running the embedder's {@link JobWorker}, found on the class path
 * ({@link java.util.ServiceLoader}: exactly one registered {@code JobWorker} or {@link JobWorkerProvider}) or named
 * with {@code --worker=CLASS}. Arguments it does not know are the worker's options, handed to its provider.
 *
 * <p>Prints {@code listening on <host>:<port>} once it accepts calls (an IPv6 host in brackets, {@code [::1]:9000}),
 * and drains on SIGTERM (running jobs get the grace period, new calls are turned away). Exit codes: 2 for a bad
 * option or no usable worker (one line), 1 if it can not bind or the worker can not be made.
 */
@Command(name = "tier2", mixinStandardHelpOptions = true, versionProvider = Tier2Main.Version.class,
        sortOptions = false, usageHelpAutoWidth = true,
        description = "Serves orderly.tier2.v1.Tier2 with your JobWorker: one job per call, at most --max-concurrent"
                + " at once (the rest are refused), outputs of request R under --outputs/R/ (a directory or an S3"
                + " bucket).",
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"1:it could not start: bind, reach its bucket, or make the worker (one line)",
            "2:bad option or value, or no usable worker (one line)",
            "143:a SIGTERM drained it and the JVM ended (128 + 15)"})
public final class Tier2Main implements Callable<Integer> {

    @Spec
    private CommandSpec spec;

    @Option(names = "--host", paramLabel = "ADDRESS", defaultValue = "127.0.0.1",
            description = "Address to listen on (default: ${DEFAULT-VALUE}).")
    private String host;

    @Option(names = "--port", paramLabel = "N", defaultValue = "0",
            description = "Port to listen on; 0 picks a free one (default: ${DEFAULT-VALUE}).")
    private int port;

    @Option(names = "--health-port", paramLabel = "N",
            description = "Also serve grpc.health.v1 alone, in plaintext, on this port: for probes that speak no TLS"
                    + " (Kubernetes' gRPC probes). Default: none (health on --port only).")
    private Integer healthPort;

    @Option(names = "--max-concurrent", paramLabel = "N", defaultValue = "4",
            description = "Jobs run at once before the tier2 refuses (default: ${DEFAULT-VALUE}).")
    private int maxConcurrent;

    @Option(names = "--outputs", paramLabel = "DIR|s3://BUCKET/PREFIX", required = true,
            description = "Where the outputs go, shared with the tier1: a directory (request R's under DIR/R/) or an"
                    + " S3 bucket (request R's under the key prefix PREFIX/R/; a PREFIX that ends with / gets no"
                    + " second one, and none at all gives R/).")
    private String outputs;

    @Option(names = "--s3-endpoint", paramLabel = "URL", converter = EndpointOption.class,
            description = "An S3-compatible endpoint for s3:// outputs, such as http://127.0.0.1:9000 (path-style"
                    + " access); default: AWS S3. Credentials come from the AWS SDK's usual chain"
                    + " (AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, a profile, a role).")
    private URI s3Endpoint;

    @Option(names = "--worker", paramLabel = "CLASS",
            description = "The JobWorker or JobWorkerProvider class to run (default: the one registered on the class"
                    + " path).")
    private String workerClass;

    @Option(names = "--execution-timeout", paramLabel = "DURATION", converter = DurationOption.class,
            description = "Longest one job may run; past it the call ends with DEADLINE_EXCEEDED (default: none).")
    private Duration executionTimeout;

    @Option(names = "--drain-grace", paramLabel = "DURATION", defaultValue = "10s",
            converter = DurationOption.class,
            description = "Wall-clock time running jobs get to finish on SIGTERM (default: ${DEFAULT-VALUE}).")
    private Duration drainGrace;

    @Option(names = "--room", paramLabel = "N", defaultValue = "0",
            description = "Seats in the waiting room: when every slot is taken, a dial that asks to wait (a client with"
                    + " admissionWait) is held, holding no slot, and handed the next slot that frees (to the waiting"
                    + " tenant with the fewest jobs running here, round robin among equals; within a request to its"
                    + " lowest segment); 0 is no room, every dial refused at once when full, 0..100000"
                    + " (default: ${DEFAULT-VALUE}).")
    private int room;

    @Option(names = "--admission-wait", paramLabel = "DURATION", defaultValue = "5s",
            converter = DurationOption.class,
            description = "The longest a dial waits in the room (wall-clock; the dial's own wait may be shorter),"
                    + " > 0; needs --room (default: ${DEFAULT-VALUE}).")
    private Duration admissionWait;

    @Option(names = "--max-connection-age", paramLabel = "DURATION", defaultValue = "2m",
            converter = DurationOption.class,
            description = "How long a client's connection lives: past it the tier2 asks the client to reconnect"
                    + " (running jobs go on to their end), which looks the target's name up again, so a tier1 dials"
                    + " instances added behind its dns:/// name (a scale-up) within about this; > 0"
                    + " (default: ${DEFAULT-VALUE}).")
    private Duration maxConnectionAge;

    @Mixin
    private SecurityOptions security;

    @Parameters(paramLabel = "WORKER-OPTION", arity = "0..*",
            description = "Options for the worker's JobWorkerProvider, such as --name=value.")
    private List<String> workerOptions = new ArrayList<>();

    private final PrintWriter out;

    Tier2Main(PrintWriter out) {
        this.out = out;
    }

    /** Runs one tier2 until SIGTERM; exits with 2 on a bad option, 1 on a failure to start. */
    public static void main(String[] args) {
        // WARN, not ERROR: the server says what an operator must see at WARN (a job that failed, a malformed request)
        // and logs nothing at ERROR, so at ERROR a deployed tier2 said nothing after "listening on", ever.
        if (System.getProperty("org.slf4j.simpleLogger.defaultLogLevel") == null) {
            System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "warn");
        }
        SLF4JBridgeHandler.removeHandlersForRootLogger(); // gRPC logs through java.util.logging: send it to SLF4J
        SLF4JBridgeHandler.install();
        PrintWriter out = new PrintWriter(System.out, true, StandardCharsets.UTF_8);
        PrintWriter err = new PrintWriter(System.err, true, StandardCharsets.UTF_8);
        System.exit(execute(args, out, err));
    }

    /**
     * Runs the process with {@code args}, as {@link #main} does but printing to {@code out} and {@code err} and
     * returning the exit code: at once on a bad option or a failure to start, else after a SIGTERM has drained it.
     */
    public static int execute(String[] args, PrintWriter out, PrintWriter err) {
        CommandLine cl = new CommandLine(new Tier2Main(out));
        cl.setOut(out);
        cl.setErr(err);
        // What the launcher does not know belongs to the worker's provider, which rejects what it does not know.
        cl.setUnmatchedOptionsArePositionalParams(true);
        cl.setParameterExceptionHandler((ex, a) -> {
            err.println("tier2: " + ParameterMessages.forPeople(ex) + " (see --help)");
            err.flush();
            return 2;
        });
        cl.setExecutionExceptionHandler((ex, c, parsed) -> {
            err.println("tier2: " + firstLine(ex instanceof StartFailure ? ex.getMessage() : String.valueOf(ex)));
            err.flush();
            return 1;
        });
        return cl.execute(args);
    }

    @Override
    public Integer call() throws Exception {
        CommandLine cl = spec.commandLine();
        check(cl, "--port", port >= 0 && port <= 65_535, port, "between 0 and 65535");
        if (healthPort != null) {
            check(cl, "--health-port", healthPort >= 0 && healthPort <= 65_535 && (healthPort != port || port == 0),
                    healthPort, "between 0 and 65535 and not --port");
        }
        check(cl, "--max-concurrent", maxConcurrent >= 1 && maxConcurrent <= 100_000, maxConcurrent,
                "between 1 and 100000");
        check(cl, "--drain-grace", !drainGrace.isNegative(), written(cl, "--drain-grace", drainGrace), ">= 0");
        check(cl, "--room", room >= 0 && room <= 100_000, room, "between 0 and 100000");
        check(cl, "--admission-wait", admissionWait.isPositive(), written(cl, "--admission-wait", admissionWait),
                "> 0");
        check(cl, "--max-connection-age", maxConnectionAge.isPositive(),
                written(cl, "--max-connection-age", maxConnectionAge), "> 0");
        if (room == 0 && cl.getParseResult().hasMatchedOption("--admission-wait")) {
            // a --room=0 given is said back: "give --room=N too" read as if it had not been given
            throw new ParameterException(cl, "--admission-wait=" + written(cl, "--admission-wait", admissionWait)
                    + " needs a waiting room" + (cl.getParseResult().hasMatchedOption("--room")
                            ? ", and --room=0 is none: give --room=N with N >= 1" : ": give --room=N too"));
        }
        if (executionTimeout != null) {
            check(cl, "--execution-timeout", executionTimeout.isPositive(),
                    written(cl, "--execution-timeout", executionTimeout), "> 0");
        }
        OutputLocation location;
        try {
            location = OutputLocation.parse(outputs);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(cl, e.getMessage(), e);
        }
        if (s3Endpoint != null && !location.isS3()) {
            throw new ParameterException(cl, "--s3-endpoint=" + s3Endpoint + " needs s3:// outputs, but --outputs="
                    + outputs);
        }
        Tier2Server.Builder builder = Tier2Server.builder().host(host).port(port).maxConcurrentJobs(maxConcurrent)
                .drainGrace(drainGrace).maxConnectionAge(maxConnectionAge).instanceName(hostPort(host, port));
        if (executionTimeout != null) {
            builder.executionTimeout(executionTimeout);
        }
        if (room > 0) {
            builder.waitingRoom(room, admissionWait);
        }
        if (healthPort != null) {
            builder.healthPort(healthPort);
        }
        if (host.isBlank()) {
            // Java reads "" as the loopback address: an unset variable in a script would serve there, said as ":PORT".
            throw new ParameterException(cl, "--host must name an address, was '" + host + "'");
        }
        // A name that does not resolve, or a port written into it (127.0.0.1:9000), was "not loopback: give --tls-cert"
        // or, with --insecure-plaintext, gRPC's "Failed to bind to address 127.0.0.1:9000/<unresolved>:0", exit 1.
        if (new InetSocketAddress(host, 0).isUnresolved()) {
            throw new ParameterException(cl, "--host=" + host + " does not resolve to an address"
                    + (host.matches(".*[^:]:[0-9]+") ? "; give the port as --port=N" : ""));
        }
        // Every option before the worker is made or the bucket asked: a bad --host came out as the bucket's failure,
        // exit 1, after a check that may wait on the network for 90 s.
        security.apply(cl, builder, host);
        S3Client client = null;
        StartFailure notSetUp = null;
        if (location.isS3()) {
            try {
                client = s3Client(cl, location);
            } catch (StartFailure e) {
                // No region or no credentials: said once the worker's options are read too, so that a bad one of
                // them is named (exit 2) on a machine not yet set up for AWS, not only after it has been.
                notSetUp = e;
            }
        }
        Tier2Server server = null;
        Thread drain = null;
        try {
            builder.worker(worker(cl));
            if (notSetUp != null) {
                throw notSetUp;
            }
            if (client != null) {
                checkBucket(client, location);
            }
            builder.outputs(client != null ? location.inBucket(client) : location.inDirectory());
            server = builder.build();
            drain = Thread.ofPlatform().name("tier2-drain").unstarted(server::close);
            Runtime.getRuntime().addShutdownHook(drain);
            try {
                server.start();
            } catch (IOException e) {
                // gRPC's "Failed to bind to address /127.0.0.1:8080" keeps its reason (in use, not allowed) in the
                // cause; said without either exception's class name, as every other failure to start.
                Throwable why = e.getCause();
                while (why != null && why.getCause() != null && why.getCause() != why) {
                    why = why.getCause(); // the health port's failure wraps gRPC's, which holds the reason
                }
                throw new StartFailure(firstLine(String.valueOf(e.getMessage())) + (why == null
                        || why.getMessage() == null ? "" : " (" + firstLine(why.getMessage()) + ")"), e);
            }
        } catch (Throwable e) {
            // Run by execute(), the JVM may live on: nothing that failed to start is left open behind it.
            if (drain != null) {
                try {
                    Runtime.getRuntime().removeShutdownHook(drain);
                } catch (IllegalStateException shuttingDown) {
                    // the hook runs, or ran: it closes the server itself
                }
            }
            if (server != null) {
                server.close();
            }
            if (client != null) {
                client.close();
            }
            throw e;
        }
        out.println("listening on " + hostPort(host, server.port()));
        if (healthPort != null) {
            out.println("health on " + hostPort(host, server.healthPort()));
        }
        out.flush();
        server.awaitTermination(); // SIGTERM runs the hook, which drains; the JVM exits when it is done
        return 0;
    }

    /** The worker, made by its provider from the options Tier2Main does not know. */
    private JobWorker worker(CommandLine cl) throws Exception {
        try {
            return WorkerLoader.load(workerClass, workerOptions, Thread.currentThread().getContextClassLoader());
        } catch (IllegalArgumentException e) {
            throw new ParameterException(cl, e.getMessage(), e);
        } catch (VirtualMachineError e) {
            throw e;
        } catch (Exception | Error e) {
            // picocli's handler takes exceptions only: an Error (a class missing beside the worker's jar) would be a
            // stack trace and exit code 16. After a VirtualMachineError nothing is sure, so that one goes on up.
            // An exception from the provider said only its own words ("java.io.IOException: disk gone"), not whose.
            throw new StartFailure("can not make the worker: " + e, e);
        }
    }

    /**
     * A client for {@code --s3-endpoint}, which it checks, with the SDK's credentials, which it asks once; it contacts
     * no bucket yet. The SDK says a missing region or missing credentials in a line of its own classes.
     */
    private S3Client s3Client(CommandLine cl, OutputLocation location) throws StartFailure {
        String where = "s3://" + location.bucket() + (s3Endpoint == null ? " on AWS S3" : " at " + s3Endpoint);
        AwsCredentialsProvider credentials = DefaultCredentialsProvider.builder().build();
        S3Client client;
        try {
            client = S3Clients.create(s3Endpoint, credentials);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(cl, "--s3-endpoint: " + e.getMessage(), e);
        } catch (IllegalStateException e) {
            throw new StartFailure(e.getMessage().replaceFirst("^no AWS region", "no AWS region for " + where), e);
        }
        try {
            credentials.resolveCredentials();
        } catch (SdkClientException e) {
            client.close();
            throw new StartFailure("no AWS credentials for " + where + ": set AWS_ACCESS_KEY_ID and"
                    + " AWS_SECRET_ACCESS_KEY, an AWS profile or a role", e);
        }
        return client;
    }

    /**
     * One HEAD of the bucket, so that a wrong bucket or key fails the start, not the jobs. A HEAD's answer has no body:
     * the SDK's message of a 404 or a 403 is its bracket of codes alone, so those two are said here in words.
     */
    private void checkBucket(S3Client client, OutputLocation location) throws StartFailure {
        String bucket = "bucket " + location.bucket() + (s3Endpoint == null ? " on AWS S3" : " at " + s3Endpoint);
        try {
            client.headBucket(r -> r.bucket(location.bucket()));
        } catch (S3Exception e) {
            if (e.statusCode() == 404) {
                throw new StartFailure(bucket + " does not exist (HTTP 404)", e);
            }
            if (e.statusCode() == 403) {
                throw new StartFailure("can not use " + bucket + ": access denied (HTTP 403): the credentials were"
                        + " refused, or they may not s3:ListBucket on it", e);
            }
            String said = e.awsErrorDetails() == null ? null : e.awsErrorDetails().errorMessage();
            throw new StartFailure("can not reach " + bucket + ": HTTP " + e.statusCode()
                    + (said == null || said.isBlank() ? "" : " " + firstLine(said)), e);
        } catch (RuntimeException e) {
            throw new StartFailure("can not reach " + bucket + ": " + firstLine(String.valueOf(e.getMessage())), e);
        }
    }

    private static String firstLine(String s) {
        return ParameterMessages.firstLine(s);
    }

    /**
     * {@code host:port} as a tier1 dials it: an IPv6 literal in brackets ({@code [::1]:9000}); unbracketed,
     * {@code ::1:9000} is itself an IPv6 address, which a gRPC target reads with no port.
     */
    static String hostPort(String host, int port) {
        return (host.contains(":") && !host.startsWith("[") ? "[" + host + "]" : host) + ":" + port;
    }

    /**
     * A duration option's value as it was given, for a refusal to name: written back in whole milliseconds,
     * {@code -500us} was "was 0s" beside the rule ">= 0". The default's own words when the option was not given.
     */
    private static String written(CommandLine cl, String option, Duration value) {
        return ParameterMessages.given(cl, option, DurationOption.format(value));
    }

    private static void check(CommandLine cl, String option, boolean ok, Object value, String rule) {
        if (!ok) {
            throw new ParameterException(cl, option + " must be " + rule + ", was " + value);
        }
    }

    /** A failure to start whose message is the whole line to print, without the exception's class. */
    private static final class StartFailure extends Exception {
        StartFailure(String message, Throwable cause) {
            super(message, cause);
        }
    }

    /**
     * Reads {@code --s3-endpoint}: picocli's own URI conversion refused a value Java can not parse in picocli's and
     * Java's words ({@code cannot convert 'http://[x' to URI (java.net.URISyntaxException: ...)}).
     */
    static final class EndpointOption implements CommandLine.ITypeConverter<URI> {
        // scheme://userinfo@ (the user info up to the host's @, with no path, query or fragment before it)
        private static final Pattern USER_INFO = Pattern.compile("^([A-Za-z][A-Za-z0-9+.-]*://)[^/?#]*@");

        @Override
        public URI convert(String value) {
            // A user and password in the URL are never written back: the line goes to logs.
            String shown = USER_INFO.matcher(value).replaceFirst("$1***@");
            boolean hidden = !shown.equals(value);
            URI uri;
            try {
                uri = new URI(value);
            } catch (URISyntaxException e) {
                throw new CommandLine.TypeConversionException("'" + shown + "' is not a URL: "
                        + e.getReason()
                        + (e.getIndex() < 0 || hidden ? "" : " at character " + (e.getIndex() + 1)));
            }
            if (hidden || uri.getRawUserInfo() != null) {
                // Taken, the SDK signed with the usual credentials anyway, and the start's failure line showed them.
                throw new CommandLine.TypeConversionException("'" + shown + "' holds a user name or password, which"
                        + " S3 does not take from the URL: give the credentials as AWS_ACCESS_KEY_ID and"
                        + " AWS_SECRET_ACCESS_KEY (or the AWS SDK's other sources)");
            }
            // Java's parser takes any digits as a port: 99999 was taken, and found only as the bucket was asked, after
            // the worker was made (exit 1, "port out of range:99999", naming no option).
            // More digits than an int holds (or a sign) make the authority registry-based instead: no host, port -1,
            // which was said as "a URL with a host", of a URL with one; the port as written is what is wrong.
            String authority = uri.getRawAuthority();
            int colon = authority == null || authority.endsWith("]") ? -1 : authority.lastIndexOf(':');
            String written = colon < 0 ? "" : authority.substring(colon + 1);
            // Port 0 is no port a server listens on: it was taken, and the bucket asked, as 99999 was.
            if (uri.getPort() > 65_535 || uri.getPort() == 0
                    || written.matches("[-+]?[0-9]+") && !written.matches("0*[1-9][0-9]{0,4}")) {
                throw new CommandLine.TypeConversionException("'" + shown + "' is not a URL: port "
                        + (uri.getPort() > 65_535 ? Integer.toString(uri.getPort()) : written)
                        + " is not between 1 and 65535");
            }
            return uri;
        }
    }

    /** The version of the jar this runs from, as its manifest says (none when run from a class directory). */
    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            String v = Tier2Main.class.getPackage().getImplementationVersion();
            if (v == null) {
                v = moduleManifestVersion();
            }
            return new String[] {"orderly tier2 " + (v == null ? "(development build)" : v)};
        }

        /**
         * On the module path ({@code java -p orderly-tier2-…-all.jar -m dev.orderly.tier2/…}) the JDK defines the
         * package with no manifest attributes, so the version is read from the module's own manifest. Not on the class
         * path: there the resource could be another jar's.
         */
        private static String moduleManifestVersion() {
            Module module = Tier2Main.class.getModule();
            if (!module.isNamed()) {
                return null;
            }
            try (InputStream in = module.getResourceAsStream("META-INF/MANIFEST.MF")) {
                return in == null ? null
                        : new Manifest(in).getMainAttributes().getValue("Implementation-Version");
            } catch (IOException e) {
                return null;
            }
        }
    }
}
