package dev.orderly.tier2;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.orderly.api.EngineConfig;
import dev.orderly.api.Request;
import dev.orderly.api.RequestFailedException;
import dev.orderly.api.RequestPlan;
import dev.orderly.api.RequestResult;
import dev.orderly.engine.FileOutputStore;
import dev.orderly.engine.Orderly;
import dev.orderly.grpc.GrpcTier2Client;
import dev.orderly.grpc.JobWorker;
import dev.orderly.grpc.Tier2Server;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Found in review (a doc defect): the "Many machines" example of docs/guide/fleet.md reads request {@code requestId}'s
 * outputs ({@code new FileOutputStore(Path.of("/mnt/outputs/" + requestId))}) but sends the request with
 * {@code Request.of(...)} alone, that is under a random id. A tier2 files a job's output under the job's request id
 * ({@code Tier2Main --outputs=DIR} writes request R under {@code DIR/R/}), so it writes where the tier1 never reads:
 * segment 0 is re-run three times and the request fails "output missing". Every Java block of the README and the
 * guides that reads a per-request place named by {@code requestId} must send the request as {@code requestId}; and
 * the example, run as written against a tier2 whose outputs go where {@code Tier2Main --outputs=DIR} puts them,
 * delivers.
 */
@Timeout(60)
class TheManyMachinesExampleReadsTheRequestItSendsTest {

    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    private static final Pattern JAVA_BLOCK = Pattern.compile("```java\\n(.*?)```", Pattern.DOTALL);

    private static List<Path> docs() throws Exception {
        List<Path> docs = new ArrayList<>(List.of(ROOT.resolve("README.md")));
        try (Stream<Path> guides = Files.list(ROOT.resolve("docs/guide"))) {
            guides.filter(p -> p.toString().endsWith(".md")).sorted().forEach(docs::add);
        }
        return docs;
    }

    /** The Java blocks that run a request whose outputs they read from a place named by {@code requestId}. */
    private static List<String> blocksReadingRequestIdsOutputs(List<String> where) throws Exception {
        List<String> blocks = new ArrayList<>();
        for (Path doc : docs()) {
            Matcher block = JAVA_BLOCK.matcher(Files.readString(doc));
            while (block.find()) {
                String code = block.group(1);
                if (code.contains("Request.of(") && code.matches("(?s).*(OutputStore|prefix)\\([^;]*requestId.*")) {
                    blocks.add(code);
                    where.add(ROOT.relativize(doc).toString());
                }
            }
        }
        return blocks;
    }

    @Test
    void everyExampleThatReadsRequestIdsOutputsSendsTheRequestAsRequestId() throws Exception {
        List<String> where = new ArrayList<>();
        List<String> blocks = blocksReadingRequestIdsOutputs(where);
        assertTrue(where.contains("docs/guide/fleet.md"), "the fleet guide's example is no longer found: " + where);
        List<String> wrong = new ArrayList<>();
        for (int i = 0; i < blocks.size(); i++) {
            if (!blocks.get(i).contains(".withId(requestId)")) {
                wrong.add(where.get(i));
            }
        }
        assertEquals(List.of(), wrong, "examples that read request requestId's outputs but send the request under a"
                + " random id (no .withId(requestId))");
    }

    @Test
    void theFleetGuidesExampleDeliversAgainstATier2WithItsOutputsInADirectory(@TempDir Path dir) throws Exception {
        List<String> where = new ArrayList<>();
        List<String> blocks = blocksReadingRequestIdsOutputs(where);
        String example = blocks.get(where.indexOf("docs/guide/fleet.md"));
        Path outputs = dir.resolve("outputs"); // the example's /mnt/outputs, shared by the tier1 and the tier2
        JobWorker worker = (JobWorker.WithContext) job ->
                job.writeOutput(("segment " + job.job().key().segment()).getBytes(StandardCharsets.UTF_8));
        String requestId = "req-7";
        RequestPlan plan = new RequestPlan(0, 4, 1, 2);
        try (Tier2Server server = Tier2Server.builder().port(0).maxConcurrentJobs(2).worker(worker)
                .outputs(OutputLocation.parse(outputs.toString()).inDirectory()) // as Tier2Main --outputs=DIR
                .build().start();
             GrpcTier2Client tier2 = GrpcTier2Client.builder().addresses(List.of("127.0.0.1:" + server.port()))
                     .build()) {
            // As the example runs it: the store it names, and the request's id only if the example gives one.
            Request request = Request.of(plan, tier2, new FileOutputStore(outputs.resolve(requestId)),
                    (segment, output) -> { });
            if (example.contains(".withId(requestId)")) {
                request = request.withId(requestId);
            }
            RequestResult result = Orderly.engine(EngineConfig.builder().failureDelay(Duration.ofMillis(10)).build())
                    .run(request);
            assertEquals(4, result.segmentsDelivered());
        } catch (RequestFailedException e) {
            fail("docs/guide/fleet.md's example, run as written against a tier2 that files outputs by request id,"
                    + " fails: " + e.getMessage());
        }
    }
}
