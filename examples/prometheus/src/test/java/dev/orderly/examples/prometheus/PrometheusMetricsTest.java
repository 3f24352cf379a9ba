package dev.orderly.examples.prometheus;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(60)
class PrometheusMetricsTest {

    @Test
    void prometheusScrapesOrderlysMetersOverHttp() throws Exception {
        try (PrometheusMetrics example = new PrometheusMetrics(0)) {
            example.runRequest(30);
            example.runRequest(20);

            HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
            HttpResponse<String> scrape = http.send(HttpRequest.newBuilder(URI.create(example.metricsUrl()))
                    .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());

            assertEquals(200, scrape.statusCode());
            List<String> lines = scrape.body().lines().toList();
            assertTrue(lines.contains("orderly_segments_delivered_segments_total 50.0"), scrape.body());
            assertTrue(lines.contains("orderly_requests_total{result=\"done\"} 2.0"), scrape.body());
            double admitted = lines.stream().filter(l -> l.startsWith("orderly_dials_total{outcome=\"admitted\"} "))
                    .mapToDouble(l -> Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1))).sum();
            // Every segment's last stage got in; a first stage may have been covered by it before it was dialed.
            assertTrue(admitted >= 50 && admitted <= 100, "admitted " + admitted + " in\n" + scrape.body());
            assertTrue(lines.contains("orderly_launch_queued_jobs 0.0"), "no request left anything queued: "
                    + scrape.body());
        }
    }
}
