package dev.orderly.multihost;

import dev.orderly.api.Engine;
import dev.orderly.api.EngineConfig;
import dev.orderly.api.OutputStore;
import dev.orderly.api.Request;
import dev.orderly.api.RequestFailedException;
import dev.orderly.api.RequestListener;
import dev.orderly.api.RequestPlan;
import dev.orderly.api.RequestResult;
import dev.orderly.api.Tier2Client;
import dev.orderly.engine.Orderly;
import dev.orderly.grpc.GrpcTier2Client;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.zip.CRC32;

/**
 * The tier1 host's process: runs one request on the engine over a {@link GrpcTier2Client} that dials the fleet by
 * name, and tells the test what happened, one line each, on standard output:
 *
 * <pre>
 * delivered SEGMENT CRC32 LENGTH        for each segment, in the order the engine handed them over
 * done DELIVERED DIALS REFUSALS FAILURES ELAPSED_MS
 * failed MESSAGE                         (exit 1)
 * dials-after-end N                      dials seen from the end of the request to the close of the client
 * </pre>
 *
 * Options ({@code --name=value}): {@code target}, {@code request}, {@code segments}, {@code stages},
 * {@code workers}, {@code failure-delay-ms}, and the store and security options {@link Deployment} gives.
 */
public final class Tier1Main {

    /** How long after the request's end the client stays open to catch a late dial. */
    private static final Duration AFTER_END_WATCH = Duration.ofSeconds(1);

    private Tier1Main() {
    }

    public static void main(String[] args) throws Exception {
        PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
        Map<String, String> o = options(args);
        RequestPlan plan = new RequestPlan(0, Long.parseLong(o.get("segments")), Integer.parseInt(o.get("stages")),
                Integer.parseInt(o.get("workers")));
        EngineConfig config = EngineConfig.builder()
                .failureDelay(Duration.ofMillis(Long.parseLong(o.get("failure-delay-ms"))))
                .build();
        Engine engine = Orderly.engine(config);
        AtomicBoolean ended = new AtomicBoolean();
        AtomicLong lateDials = new AtomicLong();
        int exit = 0;
        try (GrpcTier2Client grpc = Deployment.tier1Client(o)) {
            Tier2Client watched = job -> {
                if (ended.get()) {
                    lateDials.incrementAndGet();
                }
                return grpc.dial(job);
            };
            OutputStore store = Deployment.tier1Store(o);
            Request request = new Request(o.get("request"), plan, watched, store, (segment, output) -> {
                CRC32 crc = new CRC32();
                crc.update(output);
                out.println("delivered " + segment + " " + Long.toHexString(crc.getValue()) + " " + output.length);
            }, RequestListener.NONE);
            try {
                RequestResult r = engine.run(request);
                ended.set(true);
                out.println("done " + r.segmentsDelivered() + " " + r.dials() + " " + r.refusals() + " "
                        + r.failures() + " " + r.elapsed().toMillis());
            } catch (RequestFailedException e) {
                ended.set(true);
                out.println("failed " + e.getMessage().replace('\n', ' '));
                exit = 1;
            }
            // Still silent a second after the end: a job that outlived the request would dial in this window.
            Thread.sleep(AFTER_END_WATCH);
            out.println("dials-after-end " + lateDials.get());
        }
        System.exit(exit);
    }

    private static Map<String, String> options(String[] args) {
        Map<String, String> o = new HashMap<>();
        for (String a : args) {
            int eq = a.indexOf('=');
            if (!a.startsWith("--") || eq < 0) {
                throw new IllegalArgumentException("options are --name=value, was '" + a + "'");
            }
            o.put(a.substring(2, eq), a.substring(eq + 1));
        }
        return o;
    }
}
