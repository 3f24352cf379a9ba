package dev.orderly.tier2;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orderly.s3.S3Clients;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;

/**
 * The tier2 opens its ports, the health port too, only after its one check of the bucket, which waits up to
 * {@link S3Clients#CALL_SECONDS} (90 s) on an endpoint that stalls, then ends the process with its one line
 * ("tier2: can not reach bucket …", exit 1). The Deployment's liveness probe killed the pod before that: a first probe
 * at 20 s and 6 failures 10 s apart is about 70 s, so the pod restarted with no line saying why, a liveness failure
 * in its place. Whatever probes the pod before it listens must allow the check its whole time, and the JVM's start.
 */
class ALivenessProbeLetsTheBucketCheckSayWhyItFailedTest {

    private static final Path DEPLOYMENT = Path.of("..", "deploy", "kubernetes", "deployment.yaml").toAbsolutePath()
            .normalize();

    @SuppressWarnings("unchecked")
    private static Map<String, Object> container() throws Exception {
        Map<String, Object> d = new Yaml().load(Files.readString(DEPLOYMENT));
        Map<String, Object> spec = (Map<String, Object>) ((Map<String, Object>) ((Map<String, Object>) d.get("spec"))
                .get("template")).get("spec");
        return ((List<Map<String, Object>>) spec.get("containers")).get(0);
    }

    private static int seconds(Map<String, Object> probe, String field, int kubernetesDefault) {
        Object v = probe.get(field);
        return v == null ? kubernetesDefault : (Integer) v;
    }

    /**
     * The longest a pod may stay unanswering from its start before the kubelet kills it, counted generously (a
     * probe period more than the kubelet's own count): a startup probe's allowance when there is one (liveness waits
     * for it), else the liveness probe's.
     */
    @SuppressWarnings("unchecked")
    private static int secondsBeforeAKill() throws Exception {
        Map<String, Object> c = container();
        Map<String, Object> probe = (Map<String, Object>) (c.get("startupProbe") != null ? c.get("startupProbe")
                : c.get("livenessProbe"));
        return seconds(probe, "initialDelaySeconds", 0)
                + seconds(probe, "failureThreshold", 3) * seconds(probe, "periodSeconds", 10);
    }

    @Test
    void aPodIsNotKilledWhileItsBucketCheckMayStillRun() throws Exception {
        int allowed = secondsBeforeAKill();
        // 10 s for the JVM to start and make the worker before the check begins
        int needed = S3Clients.CALL_SECONDS + 10;
        assertTrue(allowed >= needed, "deployment.yaml kills a pod that has not opened its health port after at most "
                + allowed + " s, but the tier2 opens it only after its bucket check, which may take "
                + S3Clients.CALL_SECONDS + " s (S3Clients.CALL_SECONDS) before it says why it failed; give the pod at"
                + " least " + needed + " s (a startupProbe)");
    }
}
