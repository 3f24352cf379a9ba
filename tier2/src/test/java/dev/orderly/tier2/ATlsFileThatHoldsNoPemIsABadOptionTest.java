package dev.orderly.tier2;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orderly.grpc.JobWorker;
import dev.orderly.testing.net.TestCertificates;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Regression: a {@code --tls-cert}, {@code --tls-key} or {@code --client-ca} file that can be read but holds no PEM
 * certificate (or no PKCS#8 key) passed the option check: {@code Tier2Security.serverCredentials} only checks that
 * the files are readable, and grpc-java's {@code TlsServerCredentials} keeps their bytes unread. They were parsed only
 * at {@code Tier2Server.Builder.build()}, after the worker was made and the bucket asked (a HEAD, up to 90 s), and the
 * tier2 ended exit 1 with Java's exception and Netty's words, naming no option and no file:
 * {@code tier2: java.lang.IllegalArgumentException: Input stream not contain valid certificates.} (or "... does not
 * contain valid private key." for a PKCS#1 {@code BEGIN RSA PRIVATE KEY} key, what {@code openssl genrsa} and
 * cert-manager's default encoding write). A file the launcher can not use is a bad option: exit 2, one line naming
 * the file, before anything is made or contacted, as the launcher's help and docs/guide/run-your-own-tier2.md say.
 */
@Timeout(60)
class ATlsFileThatHoldsNoPemIsABadOptionTest {

    /** Counts the workers made, so that a test sees none was. */
    public static final class Counting implements JobWorkerProvider {
        static final AtomicInteger MADE = new AtomicInteger();

        @Override
        public JobWorker create(List<String> options) {
            MADE.incrementAndGet();
            return (job, work) -> {
            };
        }
    }

    @TempDir
    Path dir;

    private record Said(int code, String err) {
    }

    /** Runs the launcher in this JVM; every case here ends before it binds anything. */
    private static Said run(String... args) {
        StringWriter err = new StringWriter();
        int code = Tier2Main.execute(args, new PrintWriter(new StringWriter(), true), new PrintWriter(err, true));
        return new Said(code, err.toString());
    }

    private static void assertABadOptionNaming(Said said, Path file) {
        assertEquals(2, said.code(), said.err());
        assertEquals(1, said.err().strip().lines().count(), said.err());
        assertTrue(said.err().startsWith("tier2: "), said.err());
        assertTrue(said.err().contains(file.toString()), "the file is not named: " + said.err());
        assertFalse(said.err().contains("java.") || said.err().contains("Exception"),
                "Java's exception is no words for a person: " + said.err());
    }

    private static int closedPort() throws Exception {
        try (ServerSocket s = new ServerSocket()) {
            s.bind(new InetSocketAddress("127.0.0.1", 0));
            return s.getLocalPort();
        }
    }

    @Test
    void aCertificateAndKeyGivenTheWrongWayRoundAreNamedBeforeTheWorkerIsMade() throws Exception {
        TestCertificates.Pem pem = TestCertificates.authority(dir, "fleet").leaf("tier2");
        int before = Counting.MADE.get();
        Said said = run("--outputs=" + dir.resolve("out"), "--worker=" + Counting.class.getName(),
                "--tls-cert=" + pem.key(), "--tls-key=" + pem.certificate());
        assertABadOptionNaming(said, pem.key());
        assertEquals(before, Counting.MADE.get(), "the worker was made before the TLS files were read");
    }

    @Test
    void aClientCaThatHoldsNoCertificateIsNamed() throws Exception {
        TestCertificates.Pem pem = TestCertificates.authority(dir, "fleet").leaf("tier2");
        Path notACa = Files.writeString(dir.resolve("client-ca.pem"), "not a certificate\n");
        Said said = run("--outputs=" + dir.resolve("out"), "--worker=" + Counting.class.getName(),
                "--tls-cert=" + pem.certificate(), "--tls-key=" + pem.key(), "--client-ca=" + notACa);
        assertABadOptionNaming(said, notACa);
    }

    @Test
    void aCertificateFileThatIsNoPemIsFoundBeforeTheBucketIsAsked() throws Exception {
        TestCertificates.Pem pem = TestCertificates.authority(dir, "fleet").leaf("tier2");
        Path notACertificate = Files.writeString(dir.resolve("tls.crt"), "not a certificate\n");
        int before = Counting.MADE.get();
        // The bucket's endpoint refuses connections: asked, it ends the start with exit 1 "can not reach bucket".
        Said said = run("--outputs=s3://outputs/requests", "--s3-endpoint=http://127.0.0.1:" + closedPort(),
                "--worker=" + Counting.class.getName(), "--tls-cert=" + notACertificate, "--tls-key=" + pem.key());
        assertABadOptionNaming(said, notACertificate);
        assertFalse(said.err().contains("can not reach bucket"), said.err());
        assertEquals(before, Counting.MADE.get(), "the worker was made before the TLS files were read");
    }
}
