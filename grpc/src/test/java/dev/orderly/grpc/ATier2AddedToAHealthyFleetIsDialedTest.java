package dev.orderly.grpc;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orderly.api.Job;
import dev.orderly.api.JobKey;
import dev.orderly.api.Tier2Call;
import dev.orderly.api.Tier2Exception;
import io.grpc.EquivalentAddressGroup;
import io.grpc.NameResolver;
import io.grpc.NameResolverProvider;
import io.grpc.NameResolverRegistry;
import java.net.InetSocketAddress;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The guide's tier1 dials {@code dns:///orderly-tier2.<ns>.svc.cluster.local:9000} (a headless Service) with
 * {@code round_robin}. gRPC's DNS resolver has no timer: it looks the name up again only when the load balancer asks,
 * which it does when a connection fails or goes idle. So while every connected tier2 stayed healthy, a tier1 that
 * started before a scale-up (replicas 3 to 6, an HPA) never dialed the new pods: they ran nothing, ever. The tier2 now
 * ends each connection after its {@code maxConnectionAge} (GOAWAY, no grace that cuts calls): the client reconnects,
 * its load balancer asks the resolver again, and the new addresses are dialed.
 *
 * <p>The name here is answered by a resolver of this test's own (as DNS would answer it: from the list as it is at
 * each look-up, never on its own), through the client's own {@code target(...)}.
 */
@Timeout(120)
class ATier2AddedToAHealthyFleetIsDialedTest {

    private static final Duration AGE = Duration.ofSeconds(1);
    private static final Duration WINDOW = Duration.ofSeconds(20);

    @Test
    void aTier2AddedWhileEveryConnectionIsHealthyIsDialedWithinTheMaxConnectionAge() throws Exception {
        Fleet fleet = new Fleet("orderly-scale-test");
        AtomicInteger ranOnA = new AtomicInteger();
        AtomicInteger ranOnB = new AtomicInteger();
        NameResolverRegistry.getDefaultRegistry().register(fleet);
        try (Tier2Server a = Tier2Server.builder().port(0).maxConcurrentJobs(4).drainGrace(Duration.ZERO)
                     .maxConnectionAge(AGE)
                     .worker((job, work) -> ranOnA.incrementAndGet()).build().start();
             Tier2Server b = Tier2Server.builder().port(0).maxConcurrentJobs(4).drainGrace(Duration.ZERO)
                     .maxConnectionAge(AGE)
                     .worker((job, work) -> ranOnB.incrementAndGet()).build();
             GrpcTier2Client client = GrpcTier2Client.builder().target("orderly-scale-test:///fleet").plaintext()
                     .admissionTimeout(Duration.ofSeconds(2)).build()) {
            fleet.addresses.add(new InetSocketAddress("127.0.0.1", a.port()));
            // the channel looks the name up at its first call, which this is
            await().atMost(WINDOW).until(() -> dialOnce(client, 0));

            b.start();
            fleet.addresses.add(new InetSocketAddress("127.0.0.1", b.port())); // the scale-up: DNS now says both
            int dials = 0;
            int failed = 0;
            long start = System.nanoTime();
            long end = start + WINDOW.toNanos();
            while (ranOnB.get() == 0 && System.nanoTime() < end) {
                if (!dialOnce(client, ++dials)) {
                    failed++;
                }
                TimeUnit.MILLISECONDS.sleep(20); // a tier1's pace between jobs, not a wait for a condition
            }
            long tookMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            System.out.println("B reached after " + tookMs + " ms and " + dials + " dials; resolver asked again "
                    + fleet.refreshes.get() + " times");
            assertTrue(ranOnB.get() > 0, "in " + tookMs + " ms and " + dials + " dials (" + failed + " failed) after"
                    + " tier2 B joined the name's answer, none reached B: A ran " + ranOnA.get() + " jobs, and the"
                    + " client asked the resolver again " + fleet.refreshes.get() + " times, so a tier2 added to a"
                    + " fleet whose connections stay healthy is never dialed");
            assertEquals(0, failed, "dials failed while the fleet grew");
            // reached within a few ages, far inside the window
            assertTrue(tookMs < WINDOW.toMillis(), "B was reached after " + tookMs + " ms");
        } finally {
            NameResolverRegistry.getDefaultRegistry().deregister(fleet);
        }
    }

    @Test
    void aJobLongerThanTheMaxConnectionAgeCompletesAndDialsAcrossTheReconnectionsAreAdmitted() throws Exception {
        Fleet fleet = new Fleet("orderly-age-test");
        CountDownLatch release = new CountDownLatch(1);
        AtomicInteger interrupted = new AtomicInteger();
        NameResolverRegistry.getDefaultRegistry().register(fleet);
        try (Tier2Server a = Tier2Server.builder().port(0).maxConcurrentJobs(4).drainGrace(Duration.ZERO)
                     .maxConnectionAge(AGE)
                     .worker((job, work) -> {
                         if (job.key().segment() == 0) { // the long job: runs until the test lets it end
                             try {
                                 release.await(60, TimeUnit.SECONDS);
                             } catch (InterruptedException e) {
                                 interrupted.incrementAndGet();
                                 throw e;
                             }
                         }
                     }).build().start();
             GrpcTier2Client client = GrpcTier2Client.builder().target("orderly-age-test:///fleet").plaintext()
                     .admissionTimeout(Duration.ofSeconds(2)).build()) {
            fleet.addresses.add(new InetSocketAddress("127.0.0.1", a.port()));
            Tier2Call longJob = client.dial(new Job("r", new JobKey(0, 0), 1));
            try {
                int admitted = 0;
                int unreachable = 0;
                int dials = 0;
                long end = System.nanoTime() + WINDOW.toNanos();
                // at least three connection ages: three GOAWAYs, each a reconnection the resolver hears of
                while (fleet.refreshes.get() < 3 && System.nanoTime() < end) {
                    try (Tier2Call call = client.dial(new Job("r", new JobKey(++dials, 0), 1))) {
                        call.await();
                        admitted++;
                    } catch (Tier2Exception e) {
                        // UNREACHABLE is free for the engine (nothing ran); any other kind would cost the request
                        assertEquals(Tier2Exception.Kind.UNREACHABLE, e.kind(), e.getMessage());
                        unreachable++;
                    }
                    TimeUnit.MILLISECONDS.sleep(20);
                }
                System.out.println("across " + fleet.refreshes.get() + " reconnections: " + admitted
                        + " dials admitted, " + unreachable + " UNREACHABLE");
                assertTrue(fleet.refreshes.get() >= 3, "the connection was not cycled 3 times in " + WINDOW
                        + " with a max connection age of " + AGE + ": " + fleet.refreshes.get());
                assertEquals(0, unreachable, "dials across the reconnections were not admitted");
                release.countDown();
                longJob.await(); // throws if the GOAWAY cut it: the job ran for several ages
            } finally {
                longJob.close();
            }
            assertEquals(0, interrupted.get(), "the long job was stopped");
        } finally {
            release.countDown();
            NameResolverRegistry.getDefaultRegistry().deregister(fleet);
        }
    }

    @Test
    void aMaxConnectionAgeThatIsNotPositiveIsRefusedByName() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Tier2Server.builder().maxConnectionAge(Duration.ZERO));
        assertEquals("maxConnectionAge must be > 0, was PT0S", e.getMessage());
    }

    /** One job dialed, run and closed; whether it was admitted and completed. */
    private static boolean dialOnce(GrpcTier2Client client, int segment) throws InterruptedException {
        try (Tier2Call call = client.dial(new Job("r", new JobKey(segment, 0), 1))) {
            call.await();
            return true;
        } catch (Tier2Exception e) {
            return false;
        }
    }

    /**
     * Answers a scheme of its own from {@link #addresses} as they are when asked (at the start and at each refresh),
     * as a DNS server does: it tells the channel nothing on its own.
     */
    private static final class Fleet extends NameResolverProvider {
        final String scheme;
        final List<InetSocketAddress> addresses = new CopyOnWriteArrayList<>();
        final AtomicInteger refreshes = new AtomicInteger();

        Fleet(String scheme) {
            this.scheme = scheme;
        }

        @Override
        protected boolean isAvailable() {
            return true;
        }

        @Override
        protected int priority() {
            return 1; // under dns's 5: never the default scheme of other tests' targets
        }

        @Override
        public String getDefaultScheme() {
            return scheme;
        }

        @Override
        public NameResolver newNameResolver(URI targetUri, NameResolver.Args args) {
            if (!scheme.equals(targetUri.getScheme())) {
                return null;
            }
            return new NameResolver() {
                private Listener2 listener;

                @Override
                public String getServiceAuthority() {
                    return "fleet";
                }

                @Override
                public void start(Listener2 l) {
                    listener = l;
                    answer();
                }

                @Override
                public void refresh() {
                    refreshes.incrementAndGet();
                    answer();
                }

                private void answer() {
                    listener.onResult(ResolutionResult.newBuilder()
                            .setAddresses(addresses.stream().map(EquivalentAddressGroup::new).toList()).build());
                }

                @Override
                public void shutdown() {
                }
            };
        }
    }
}
