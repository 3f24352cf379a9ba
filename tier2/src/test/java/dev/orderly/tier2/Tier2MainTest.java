package dev.orderly.tier2;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A bad option, or no usable worker, ends the tier2 process with exit code 2 and one line naming the option and the
 * value, before it listens.
 */
@Timeout(30)
class Tier2MainTest {

    private static final String WORKER = "--worker=" + TestWorkers.Echo.class.getName();

    /** What a run of the launcher gave: its exit code, its output and its error output (stripped). */
    record Run(int code, String out, String err) {
    }

    /** Runs the launcher in this JVM with {@code args}. */
    static Run run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Tier2Main.execute(args, new PrintWriter(out, true), new PrintWriter(err, true));
        return new Run(code, out.toString(), err.toString().strip());
    }

    /**
     * Runs the launcher with a bad option in {@code args} and checks what every bad option gets: exit 2, one line on
     * the error output and nothing on the output.
     *
     * @return that line, for the caller's checks of what it says
     */
    static String badOptionLine(String... args) {
        Run r = run(args);
        assertEquals(2, r.code(), r.err());
        assertEquals(1, r.err().lines().count(), r.err());
        assertEquals("", r.out());
        return r.err();
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "--max-concurrent=0|--max-concurrent",
        "--port=70000|--port",
        "--drain-grace=-1s|--drain-grace",
        "--drain-grace=soon|--drain-grace",
        "--execution-timeout=0s|--execution-timeout",
        "--room=-1|--room must be between 0 and 100000, was -1",
        "--admission-wait=2s|--admission-wait=2s needs a waiting room: give --room=N too",
        "--s3-endpoint=http://127.0.0.1:9|--s3-endpoint",
        "--no-such-option|--no-such-option"})
    void badOptionExitsWithTwoAndOneLine(String option, String named) {
        Run r = run("--outputs=target/tier2-main-test", WORKER, option);
        assertEquals(2, r.code());
        assertEquals(1, r.err().lines().count(), r.err());
        assertTrue(r.err().contains(named), r.err());
        assertEquals("", r.out());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "--host=0.0.0.0|--host=0.0.0.0 is not loopback: give --tls-cert and --tls-key, or --insecure-plaintext",
        "--tls-cert=cert.pem|--tls-cert and --tls-key go together",
        "--client-ca=ca.pem|--client-ca=ca.pem needs --tls-cert and --tls-key",
        "--token-file=target/no-such-token-file|target/no-such-token-file",
        "--tls-cert=target/no-cert.pem --tls-key=target/no-key.pem|target/no-cert.pem",
        "--room=4 --admission-wait=0s|--admission-wait must be > 0, was 0s",
        // --room=0 given: "give --room=N too" read as if it had not been
        "--room=0 --admission-wait=2s|--admission-wait=2s needs a waiting room, and --room=0 is none: give --room=N"
                + " with N >= 1"})
    void badSecurityOptionsAreOneLineNamingThem(String options, String says) {
        java.util.List<String> args = new java.util.ArrayList<>(java.util.List.of("--outputs=target/tier2-main-test",
                WORKER));
        args.addAll(java.util.List.of(options.split(" ")));
        Run r = run(args.toArray(String[]::new));
        assertEquals(2, r.code(), r.err());
        assertEquals(1, r.err().lines().count(), r.err());
        assertTrue(r.err().contains(says), r.err());
        assertEquals("", r.out());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "--outputs=s3://Not_A_Bucket/x|Not_A_Bucket",
        "--outputs=s3://bucket/x?versionId=1|s3://BUCKET/PREFIX",
        "--outputs=s3:///no-bucket|s3://BUCKET/PREFIX",
        "--outputs= |--outputs"})
    void badOutputsAreOneLineNamingThem(String option, String says) {
        Run r = run(option, WORKER);
        assertEquals(2, r.code(), r.err());
        assertEquals(1, r.err().lines().count(), r.err());
        assertTrue(r.err().contains(says), r.err());
    }

    @Test
    void s3EndpointThatIsNoHttpUrlIsABadOption() {
        Run r = run("--outputs=s3://bucket/x", "--s3-endpoint=ftp://127.0.0.1:9", WORKER);
        assertEquals(2, r.code(), r.err());
        assertTrue(r.err().contains("--s3-endpoint") && r.err().contains("ftp://127.0.0.1:9"), r.err());
    }

    @Test
    void missingOutputsIsABadOption() {
        Run r = run("--max-concurrent=2", WORKER);
        assertEquals(2, r.code());
        assertTrue(r.err().contains("--outputs"), r.err());
    }

    @Test
    void noRegisteredWorkerIsOneLineSayingHowToGiveOne() {
        Run r = run("--outputs=target/tier2-main-test");
        assertEquals(2, r.code(), r.err());
        assertEquals(1, r.err().lines().count(), r.err());
        assertTrue(r.err().contains("no worker") && r.err().contains("--worker=CLASS"), r.err());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "no.such.Worker|no such class",
        "java.lang.String|neither a dev.orderly.grpc.JobWorker",
        "dev.orderly.tier2.TestWorkers$NoDefaultConstructor|no public no-argument constructor"})
    void unusableWorkerClassIsOneLineNamingIt(String className, String says) {
        Run r = run("--outputs=target/tier2-main-test", "--worker=" + className);
        assertEquals(2, r.code(), r.err());
        assertEquals(1, r.err().lines().count(), r.err());
        assertTrue(r.err().contains(className) && r.err().contains(says), r.err());
    }

    @Test
    void providerRejectingAnOptionIsOneLineNamingIt() {
        Run r = run("--outputs=target/tier2-main-test", "--worker=" + TestWorkers.Provider.class.getName(),
                "--greeting=x", "--colour=red");
        assertEquals(2, r.code(), r.err());
        assertEquals(1, r.err().lines().count(), r.err());
        assertTrue(r.err().contains("--colour=red"), r.err());
    }
}
