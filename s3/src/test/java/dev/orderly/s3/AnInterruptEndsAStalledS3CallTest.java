package dev.orderly.s3;

import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Timeout;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * Regression: an interrupt while an S3 call was under way did nothing. The SDK's URL-connection client does not answer
 * interrupts and its timeout handling clears the flag, so a read from an endpoint that had taken the connection and
 * said nothing ran to the client's 90 s call timeout, ended with a plain {@code IOException}, and left no interrupt:
 * a request's deadline or cancellation waited that long. The caller's wait now ends at the interrupt, with an
 * {@link InterruptedIOException} and the flag set.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class AnInterruptEndsAStalledS3CallTest {

    @ParameterizedTest
    @ValueSource(strings = {"read", "contains", "write"})
    void anInterruptEndsTheCallersWaitAtOnce(String call) throws Exception {
        List<Socket> accepted = new CopyOnWriteArrayList<>();
        CountDownLatch connected = new CountDownLatch(1);
        try (ServerSocket server = new ServerSocket()) {
            server.bind(new InetSocketAddress("127.0.0.1", 0));
            Thread.ofVirtual().start(() -> {
                try {
                    while (true) {
                        accepted.add(server.accept()); // takes the connection, reads nothing, answers nothing
                        connected.countDown();
                    }
                } catch (IOException closed) {
                    // the test is over
                }
            });
            try (S3Client client = S3Clients.create(URI.create("http://127.0.0.1:" + server.getLocalPort()),
                    S3ProxyFixture.credentials())) {
                S3OutputStore store = S3OutputStore.builder().client(client).bucket("outputs").prefix("p/").build();
                AtomicReference<Throwable> seen = new AtomicReference<>();
                AtomicBoolean flag = new AtomicBoolean();
                Thread caller = Thread.ofPlatform().start(() -> {
                    try {
                        switch (call) {
                            case "read" -> store.read(0);
                            case "contains" -> store.contains(0);
                            default -> store.write(0, new byte[] {1, 2, 3});
                        }
                    } catch (Throwable e) {
                        seen.set(e);
                    }
                    flag.set(Thread.currentThread().isInterrupted());
                });
                try {
                    assertTrue(connected.await(20, TimeUnit.SECONDS), "the store never reached the server");
                    caller.interrupt();
                    assertTrue(caller.join(Duration.ofSeconds(10)), "the call went on after the interrupt");
                    assertInstanceOf(InterruptedIOException.class, seen.get(), () -> "ended with " + seen.get());
                    assertTrue(seen.get().getMessage().contains("s3://outputs/p/segment-00000000000000000000.out"),
                            seen.get().getMessage());
                    assertTrue(flag.get(), "the interrupt flag was lost");
                } finally {
                    // The server lets go first, so that a call still under way ends at once, whatever it answers to.
                    for (Socket s : accepted) {
                        s.close();
                    }
                    server.close();
                    caller.interrupt();
                    assertTrue(caller.join(Duration.ofSeconds(30)), "the caller never ended");
                }
            }
        }
    }
}
