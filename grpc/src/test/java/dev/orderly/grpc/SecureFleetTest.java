package dev.orderly.grpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orderly.api.Job;
import dev.orderly.api.JobKey;
import dev.orderly.api.Tier2Call;
import dev.orderly.api.Tier2Exception;
import dev.orderly.api.Tier2Exception.Kind;
import io.grpc.Grpc;
import io.grpc.ManagedChannel;
import io.grpc.health.v1.HealthCheckRequest;
import io.grpc.health.v1.HealthCheckResponse.ServingStatus;
import io.grpc.health.v1.HealthGrpc;
import dev.orderly.testing.net.TestCertificates;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * TLS, mTLS and bearer tokens over loopback Netty, with certificates the test makes: load balancing and health
 * checking survive TLS, a client without a certificate is turned away by an mTLS tier2, a wrong or missing token is
 * FATAL naming the target, tokens rotate, the health service stays open, and plaintext off loopback must be asked for.
 */
@Timeout(90)
class SecureFleetTest {

    @TempDir
    Path dir;

    private final List<AutoCloseable> toClose = new ArrayList<>();
    private final CountDownLatch finish = new CountDownLatch(1);
    private TestCertificates ca;
    private TestCertificates.Pem server;
    private TestCertificates.Pem client;

    @BeforeEach
    void makeCertificates() throws Exception {
        ca = TestCertificates.authority(dir, "fleet");
        server = ca.leaf("tier2");
        client = ca.leaf("tier1");
    }

    @AfterEach
    void tearDown() throws Exception {
        finish.countDown();
        for (int i = toClose.size() - 1; i >= 0; i--) {
            toClose.get(i).close();
        }
    }

    private <T extends AutoCloseable> T closeLater(T resource) {
        toClose.add(resource);
        return resource;
    }

    private static Job job(long segment) {
        return new Job("r", new JobKey(segment, 0), 1);
    }

    private Tier2Server tlsServer(int slots, JobWorker worker, Path clientCa, List<String> tokens) throws Exception {
        Tier2Server.Builder b = Tier2Server.builder().maxConcurrentJobs(slots).worker(worker)
                .drainGrace(Duration.ZERO).loadStatusDelay(Duration.ZERO) // full means NOT_SERVING at once here
                .credentials(Tier2Security.serverCredentials(server.certificate(), server.key(), clientCa));
        if (tokens != null) {
            b.bearerTokens(tokens);
        }
        return closeLater(b.build().start());
    }

    private static void runOne(GrpcTier2Client c, long segment) throws Exception {
        try (Tier2Call call = c.dial(job(segment))) {
            call.await();
        }
    }

    @Test
    void tlsFleetKeepsRoundRobinAndHealthChecking() throws Exception {
        JobWorker blocking = (job, work) -> finish.await();
        Tier2Server full = tlsServer(1, blocking, null, null);
        Tier2Server roomyA = tlsServer(64, (job, work) -> { }, null, null);
        Tier2Server roomyB = tlsServer(64, (job, work) -> { }, null, null);
        GrpcTier2Client direct = closeLater(GrpcTier2Client.builder()
                .addresses(List.of("127.0.0.1:" + full.port()))
                .credentials(Tier2Security.clientCredentials(ca.caCertificate(), null, null)).build());
        Tier2Call holder = direct.dial(job(0)); // fills the one slot: that instance is NOT_SERVING from now on
        GrpcTier2Client fleet = closeLater(GrpcTier2Client.builder()
                .addresses(List.of("127.0.0.1:" + full.port(), "127.0.0.1:" + roomyA.port(),
                        "127.0.0.1:" + roomyB.port()))
                .credentials(Tier2Security.clientCredentials(ca.caCertificate(), null, null)).build());
        for (int i = 0; i < 40; i++) {
            runOne(fleet, i);
        }
        assertEquals(0, full.callsRefused(), "calls reached the full instance: health checking is off over TLS");
        assertTrue(roomyA.jobsAdmitted() > 0 && roomyB.jobsAdmitted() > 0,
                "round_robin lost over TLS: " + roomyA.jobsAdmitted() + " / " + roomyB.jobsAdmitted());
        assertEquals(40, roomyA.jobsAdmitted() + roomyB.jobsAdmitted());
        finish.countDown();
        holder.await();
        holder.close();
    }

    @Test
    void mtlsTurnsAwayAClientWithoutACertificateAndAdmitsOneWithIt() throws Exception {
        Tier2Server mtls = tlsServer(4, (job, work) -> { }, ca.caCertificate(), null);
        String address = "127.0.0.1:" + mtls.port();
        GrpcTier2Client anonymous = closeLater(GrpcTier2Client.builder().addresses(List.of(address))
                .admissionTimeout(Duration.ofSeconds(5))
                .credentials(Tier2Security.clientCredentials(ca.caCertificate(), null, null)).build());
        Tier2Exception e = assertThrows(Tier2Exception.class, () -> runOne(anonymous, 0));
        assertTrue(e.neverRan(), e.getMessage());
        assertEquals(0, mtls.jobsAdmitted());

        TestCertificates stranger = TestCertificates.authority(dir, "stranger");
        TestCertificates.Pem strangerLeaf = stranger.leaf("tier1");
        GrpcTier2Client wrongCa = closeLater(GrpcTier2Client.builder().addresses(List.of(address))
                .admissionTimeout(Duration.ofSeconds(5))
                .credentials(Tier2Security.clientCredentials(ca.caCertificate(), strangerLeaf.certificate(),
                        strangerLeaf.key())).build());
        assertTrue(assertThrows(Tier2Exception.class, () -> runOne(wrongCa, 0)).neverRan());
        assertEquals(0, mtls.jobsAdmitted());

        GrpcTier2Client known = closeLater(GrpcTier2Client.builder().addresses(List.of(address))
                .credentials(Tier2Security.clientCredentials(ca.caCertificate(), client.certificate(),
                        client.key())).build());
        runOne(known, 0);
        assertEquals(1, mtls.jobsAdmitted());
    }

    @Test
    void aClientThatDoesNotTrustTheTier2sCaNeverSendsAJob() throws Exception {
        Tier2Server tls = tlsServer(4, (job, work) -> { }, null, null);
        TestCertificates other = TestCertificates.authority(dir, "other");
        GrpcTier2Client c = closeLater(GrpcTier2Client.builder().addresses(List.of("127.0.0.1:" + tls.port()))
                .admissionTimeout(Duration.ofSeconds(5))
                .credentials(Tier2Security.clientCredentials(other.caCertificate(), null, null)).build());
        assertTrue(assertThrows(Tier2Exception.class, () -> runOne(c, 0)).neverRan());
        assertEquals(0, tls.jobsAdmitted());
    }

    @Test
    void aWrongOrMissingTokenIsFatalAndNamesTheTarget() throws Exception {
        Tier2Server tls = tlsServer(4, (job, work) -> { }, null, List.of("s3cret"));
        String target = "127.0.0.1:" + tls.port();
        GrpcTier2Client wrong = closeLater(GrpcTier2Client.builder().target(target)
                .credentials(Tier2Security.clientCredentials(ca.caCertificate(), null, null))
                .bearerToken(() -> "guess").build());
        Tier2Exception e = assertThrows(Tier2Exception.class, () -> runOne(wrong, 0));
        assertEquals(Kind.FATAL, e.kind(), e.getMessage());
        assertTrue(e.getMessage().contains(target) && e.getMessage().contains("UNAUTHENTICATED"), e.getMessage());

        GrpcTier2Client none = closeLater(GrpcTier2Client.builder().target(target)
                .credentials(Tier2Security.clientCredentials(ca.caCertificate(), null, null)).build());
        assertEquals(Kind.FATAL, assertThrows(Tier2Exception.class, () -> runOne(none, 0)).kind());
        assertEquals(0, tls.jobsAdmitted());

        GrpcTier2Client good = closeLater(GrpcTier2Client.builder().target(target)
                .credentials(Tier2Security.clientCredentials(ca.caCertificate(), null, null))
                .bearerToken(() -> "s3cret").build());
        runOne(good, 0);
        assertEquals(1, tls.jobsAdmitted());
    }

    @Test
    void tokensRotateWithoutARestart() throws Exception {
        // The fleet accepts the old and the new token while clients move; then a fleet that dropped the old one.
        Tier2Server both = tlsServer(4, (job, work) -> { }, null, List.of("old-token", "new-token"));
        Tier2Server newOnly = tlsServer(4, (job, work) -> { }, null, List.of("new-token"));
        AtomicReference<String> token = new AtomicReference<>("old-token");
        GrpcTier2Client c = closeLater(GrpcTier2Client.builder().addresses(List.of("127.0.0.1:" + both.port()))
                .credentials(Tier2Security.clientCredentials(ca.caCertificate(), null, null))
                .bearerToken(token::get).build());
        runOne(c, 0);
        token.set("new-token"); // the supplier is asked on every call
        runOne(c, 1);
        assertEquals(2, both.jobsAdmitted());

        GrpcTier2Client stale = closeLater(GrpcTier2Client.builder().addresses(List.of("127.0.0.1:" + newOnly.port()))
                .credentials(Tier2Security.clientCredentials(ca.caCertificate(), null, null))
                .bearerToken(() -> "old-token").build());
        assertEquals(Kind.FATAL, assertThrows(Tier2Exception.class, () -> runOne(stale, 0)).kind());
        assertEquals(0, newOnly.jobsAdmitted());
    }

    @Test
    void theHealthServiceStaysOpenWithoutAToken() throws Exception {
        Tier2Server tls = tlsServer(4, (job, work) -> { }, null, List.of("s3cret"));
        ManagedChannel channel = Grpc.newChannelBuilderForAddress("localhost", tls.port(),
                Tier2Security.clientCredentials(ca.caCertificate(), null, null)).build();
        closeLater(() -> channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS));
        HealthGrpc.HealthBlockingStub health = HealthGrpc.newBlockingStub(channel)
                .withDeadlineAfter(10, TimeUnit.SECONDS);
        assertEquals(ServingStatus.SERVING, health.check(HealthCheckRequest.getDefaultInstance()).getStatus());
        assertEquals(ServingStatus.SERVING, health.check(HealthCheckRequest.newBuilder()
                .setService(Tier2Protocol.SERVICE_NAME).build()).getStatus());
    }

    @Test
    void plaintextOffLoopbackMustBeAskedForOnBothSides() {
        IllegalStateException client = assertThrows(IllegalStateException.class,
                () -> GrpcTier2Client.builder().target("dns:///tier2.example:9000").build().close());
        assertTrue(client.getMessage().contains("tier2.example:9000 is not loopback: give credentials(…) or call"
                + " plaintext()"), client.getMessage());
        assertThrows(IllegalStateException.class,
                () -> GrpcTier2Client.builder().addresses(List.of("127.0.0.1:9000", "10.0.0.5:9000")).build().close());
        GrpcTier2Client.builder().target("dns:///tier2.example:9000").plaintext().build().close(); // asked for
        GrpcTier2Client.builder().target("localhost:9000").build().close(); // loopback needs no asking

        IllegalStateException token = assertThrows(IllegalStateException.class,
                () -> GrpcTier2Client.builder().target("dns:///tier2.example:9000").plaintext()
                        .bearerToken(() -> "t").build().close());
        assertTrue(token.getMessage().contains("in the clear"), token.getMessage());

        IllegalStateException server = assertThrows(IllegalStateException.class,
                () -> Tier2Server.builder().host("0.0.0.0").worker((job, work) -> { }).build());
        assertEquals("host 0.0.0.0 is not loopback: give credentials(…) or call plaintext()", server.getMessage());
        Tier2Server.builder().host("0.0.0.0").plaintext().worker((job, work) -> { }).build().close(); // not started
    }
}
