package dev.orderly.tier2;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orderly.api.Job;
import dev.orderly.api.JobKey;
import dev.orderly.api.Tier2Call;
import dev.orderly.api.Tier2Exception;
import dev.orderly.grpc.GrpcTier2Client;
import dev.orderly.grpc.JobWorker;
import dev.orderly.grpc.proto.ProcessRangeRequest;
import io.grpc.CallOptions;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import io.grpc.MethodDescriptor;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.ClientCalls;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Regression: {@code Tier2Main.main} set SLF4J's simple logger to ERROR unless told otherwise (a default it kept from
 * the simulator's quiet child processes), and the tier2 logs nothing at ERROR: a malformed request's WARN line, which
 * docs/guide/securing.md promises ("{@code INVALID_ARGUMENT} with one WARN line"), a job whose worker
 * failed ({@code job ... failed: ...}, WARN), and the drain's INFO were all dropped. The image in {@code deploy/}
 * passes no level, so a deployed tier2 said "listening on" and then nothing, whatever went wrong. The multi-host
 * test passes {@code -Dorg.slf4j.simpleLogger.defaultLogLevel=warn} to its tier2s, which hid it.
 *
 * <p>Runs {@code Tier2Main} as the image does, with no level given ({@link Tier2Child}), and reads its standard error.
 */
@Timeout(120)
class ADeployedTier2LogsTheWarningsItPromisesTest {

    /** A worker whose store is full: every job fails, not fatally. */
    public static final class Failing implements JobWorker {
        @Override
        public void run(Job job, byte[] work) {
            throw new IllegalStateException("disk full on the worker's volume");
        }
    }

    /** ProcessRange with raw bytes either way, to send a request no GrpcTier2Client would. */
    private static final MethodDescriptor.Marshaller<byte[]> RAW = new MethodDescriptor.Marshaller<>() {
        @Override
        public InputStream stream(byte[] value) {
            return new ByteArrayInputStream(value);
        }

        @Override
        public byte[] parse(InputStream stream) {
            try {
                return stream.readAllBytes();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    };

    private static final MethodDescriptor<byte[], byte[]> RAW_PROCESS_RANGE =
            MethodDescriptor.<byte[], byte[]>newBuilder().setType(MethodDescriptor.MethodType.SERVER_STREAMING)
            .setFullMethodName("orderly.tier2.v1.Tier2/ProcessRange")
            .setRequestMarshaller(RAW).setResponseMarshaller(RAW).build();

    @TempDir
    Path dir;

    @Test
    void aMalformedRequestAndAFailedJobAreInTheProcesssLog() throws Exception {
        Path logs = dir.resolve("logs");
        Tier2Child t = Tier2Child.start(logs, Map.of(), "--outputs=" + dir.resolve("out"),
                "--worker=" + Failing.class.getName());
        try (t) {
            ManagedChannel channel = Grpc.newChannelBuilder(t.address(), InsecureChannelCredentials.create()).build();
            try {
                byte[] negativeSegment = ProcessRangeRequest.newBuilder().setRequestId("r").setSegment(-1)
                        .setAttempt(1).build().toByteArray();
                StatusRuntimeException e = assertThrows(StatusRuntimeException.class, () -> {
                    Iterator<byte[]> it = ClientCalls.blockingServerStreamingCall(channel, RAW_PROCESS_RANGE,
                            CallOptions.DEFAULT.withDeadlineAfter(10, TimeUnit.SECONDS), negativeSegment);
                    while (it.hasNext()) {
                        it.next();
                    }
                });
                assertEquals(Status.Code.INVALID_ARGUMENT, e.getStatus().getCode(), e.toString());
            } finally {
                channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
            }
            try (GrpcTier2Client client = GrpcTier2Client.builder().addresses(List.of(t.address())).build()) {
                Tier2Exception e = assertThrows(Tier2Exception.class, () -> {
                    try (Tier2Call call = client.dial(new Job("r", new JobKey(0, 0), 1))) {
                        call.await();
                    }
                });
                assertEquals(Tier2Exception.Kind.RETRYABLE, e.kind(), e.getMessage());
            }
        } // SIGTERM: the process drains and ends, its standard error complete
        StringBuilder log = new StringBuilder();
        try (Stream<Path> files = Files.list(logs)) {
            for (Path f : files.filter(p -> p.getFileName().toString().endsWith(".log")).toList()) {
                log.append(Files.readString(f));
            }
        }
        assertTrue(log.toString().contains("malformed ProcessRange request"),
                "the malformed request's WARN line is missing; the tier2 said: " + log);
        assertTrue(log.toString().contains("disk full on the worker's volume"),
                "the failed job's WARN line is missing; the tier2 said: " + log);
    }
}
