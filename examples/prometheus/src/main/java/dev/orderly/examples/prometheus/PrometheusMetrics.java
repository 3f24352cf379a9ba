package dev.orderly.examples.prometheus;

import com.sun.net.httpserver.HttpServer;
import dev.orderly.api.Engine;
import dev.orderly.api.EngineConfig;
import dev.orderly.api.Request;
import dev.orderly.api.RequestPlan;
import dev.orderly.api.RequestResult;
import dev.orderly.api.Tier2Client;
import dev.orderly.engine.InMemoryOutputStore;
import dev.orderly.engine.Orderly;
import dev.orderly.micrometer.OrderlyMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;

/**
 * Orderly's meters served to Prometheus: an {@link OrderlyMetrics} bound to a {@link PrometheusMeterRegistry}, a
 * fresh listener for each request, and the registry's text format served at {@code /metrics} (here by the JDK's own
 * HTTP server; in a Spring Boot service, Actuator's {@code /actuator/prometheus} does it).
 *
 * <p>Run it: it serves on {@code http://127.0.0.1:9464/metrics}, runs one request, and keeps serving until stopped.
 */
public final class PrometheusMetrics implements AutoCloseable {

    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final OrderlyMetrics metrics = new OrderlyMetrics(registry);   // one per registry
    private final Engine engine = Orderly.engine(EngineConfig.defaults());
    private final HttpServer server;

    /** Serves {@code /metrics} on 127.0.0.1 at {@code port} (0: any free port). */
    public PrometheusMetrics(int port) throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 0);
        server.createContext("/metrics", exchange -> {
            byte[] body = registry.scrape().getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", "text/plain; version=0.0.4; charset=utf-8");
            exchange.sendResponseHeaders(200, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        });
        server.start();
    }

    /** Where Prometheus scrapes. */
    public String metricsUrl() {
        return "http://127.0.0.1:" + server.getAddress().getPort() + "/metrics";
    }

    /** One request of {@code segments} segments on a stand-in fleet that runs every job at once. */
    public RequestResult runRequest(long segments) throws Exception {
        InMemoryOutputStore outputs = new InMemoryOutputStore();
        RequestPlan plan = new RequestPlan(0, segments, 2, 8);
        Tier2Client tier2 = job -> () -> {
            if (job.key().stage() == plan.lastStage()) {
                outputs.write(job.key().segment(), new byte[] {1});
            }
        };
        return engine.run(Request.of(plan, tier2, outputs, (segment, output) -> { })
                .withListener(metrics.listener()));                       // a fresh listener per request
    }

    @Override
    public void close() {
        server.stop(0);
        registry.close();
    }

    public static void main(String[] args) throws Exception {
        PrometheusMetrics example = new PrometheusMetrics(9464);
        System.out.println("serving " + example.metricsUrl());
        System.out.println(example.runRequest(100));
    }
}
