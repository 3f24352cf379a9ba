package dev.orderly.tier2;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orderly.api.GoDuration;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.ParseResult;

/**
 * {@code deploy/} agrees with {@code Tier2Main}: every argument of the Deployment is one of its options with a valid
 * value, the ports the manifests name are the ones it listens on, the probes ask the overall health status on the
 * plaintext health port, the grace period outlasts the drain, the files the TLS and token options name come from
 * Secrets, the Service is headless over the same pods, and the image runs {@code Tier2Main} as a non-root user.
 * Read as files: no container engine or cluster exists here.
 */
class DeployManifestsTest {

    private static final Path DEPLOY = Path.of("..", "deploy").toAbsolutePath().normalize();

    @SuppressWarnings("unchecked")
    private static Map<String, Object> yaml(String file) throws Exception {
        return (Map<String, Object>) new Yaml().load(Files.readString(DEPLOY.resolve("kubernetes").resolve(file)));
    }

    @SuppressWarnings("unchecked")
    private static <T> T at(Object node, Object... path) {
        Object n = node;
        for (Object step : path) {
            n = step instanceof Integer i ? ((List<Object>) n).get(i) : ((Map<String, Object>) n).get(step);
            if (n == null) {
                throw new AssertionError("no " + step + " in " + List.of(path));
            }
        }
        return (T) n;
    }

    private static Map<String, Object> container() throws Exception {
        return at(yaml("deployment.yaml"), "spec", "template", "spec", "containers", 0);
    }

    /** The Deployment's arguments, parsed by Tier2Main's own command line: an unknown option fails here. */
    private static ParseResult parsedArgs() throws Exception {
        List<String> args = at(container(), "args");
        CommandLine cl = new CommandLine(new Tier2Main(new PrintWriter(new StringWriter())));
        ParseResult parsed = cl.parseArgs(args.toArray(String[]::new));
        assertTrue(parsed.unmatched().isEmpty(), "not Tier2Main options: " + parsed.unmatched());
        List<String> workerOptions = parsed.matchedPositionalValue(0, List.of());
        assertEquals(List.of(), workerOptions, "the manifest passes no worker options");
        return parsed;
    }

    private static <T> T option(ParseResult parsed, String name) {
        OptionSpec o = parsed.commandSpec().findOption(name);
        assertTrue(o != null, "Tier2Main has no " + name);
        return parsed.matchedOptionValue(name, o.getValue());
    }

    @Test
    void everyArgumentIsATier2MainOptionWithAValidValue() throws Exception {
        ParseResult parsed = parsedArgs();
        assertEquals("0.0.0.0", option(parsed, "--host"));
        assertTrue((int) option(parsed, "--max-concurrent") >= 1);
        assertTrue(((String) option(parsed, "--outputs")).startsWith("s3://"));
        OutputLocation.parse(option(parsed, "--outputs")); // a bucket name S3 accepts
    }

    @Test
    void portsAreTheOnesTier2MainListensOn() throws Exception {
        ParseResult parsed = parsedArgs();
        int port = option(parsed, "--port");
        int healthPort = option(parsed, "--health-port");
        assertNotEquals(port, healthPort);
        Map<String, Integer> named = new HashMap<>();
        for (Map<String, Object> p : DeployManifestsTest.<List<Map<String, Object>>>at(container(), "ports")) {
            named.put((String) p.get("name"), (Integer) p.get("containerPort"));
        }
        assertEquals(Map.of("grpc", port, "health", healthPort), named);
        Map<String, Object> service = yaml("service.yaml");
        assertEquals("None", at(service, "spec", "clusterIP"), "the Service must be headless for dns:/// round_robin");
        assertEquals(port, (int) at(service, "spec", "ports", 0, "port"));
        assertEquals("grpc", at(service, "spec", "ports", 0, "targetPort"));
        Matcher expose = Pattern.compile("(?m)^EXPOSE (\\d+) (\\d+)$")
                .matcher(Files.readString(DEPLOY.resolve("Dockerfile")));
        assertTrue(expose.find(), "the Dockerfile exposes the two ports");
        assertEquals(List.of(port, healthPort), List.of(Integer.parseInt(expose.group(1)),
                Integer.parseInt(expose.group(2))));
    }

    @Test
    void probesAskTheOverallStatusOnTheHealthPort() throws Exception {
        int healthPort = option(parsedArgs(), "--health-port");
        for (String probe : List.of("readinessProbe", "livenessProbe")) {
            assertEquals(healthPort, (int) at(container(), probe, "grpc", "port"), probe);
            assertEquals("", at(container(), probe, "grpc", "service"),
                    probe + " must ask the overall status \"\", which being full never fails");
        }
        int period = at(container(), "livenessProbe", "periodSeconds");
        int failures = at(container(), "livenessProbe", "failureThreshold");
        Duration drain = option(parsedArgs(), "--drain-grace");
        assertTrue(Duration.ofSeconds((long) period * failures).compareTo(drain) > 0,
                "a draining instance (overall status NOT_SERVING) must not be killed by its liveness probe");
    }

    @Test
    void gracePeriodOutlastsTheDrain() throws Exception {
        Duration drain = option(parsedArgs(), "--drain-grace");
        CommandLine defaults = new CommandLine(new Tier2Main(new PrintWriter(new StringWriter())));
        assertEquals(GoDuration.parse("10s"),
                defaults.parseArgs("--outputs=x").matchedOptionValue("--drain-grace",
                        defaults.getCommandSpec().findOption("--drain-grace").getValue()),
                "Tier2Main's default drain grace");
        int grace = at(yaml("deployment.yaml"), "spec", "template", "spec", "terminationGracePeriodSeconds");
        // Tier2Server.close() takes at most the drain grace + 9 s (its javadoc), and the JVM then exits.
        assertTrue(Duration.ofSeconds(grace).compareTo(drain.plusSeconds(10)) >= 0,
                "terminationGracePeriodSeconds " + grace + " must exceed --drain-grace " + drain
                        + " by at least 10 s (the stop's 9 s after the drain, and the JVM's exit)");
    }

    @Test
    void tlsAndTokenFilesComeFromSecrets() throws Exception {
        ParseResult parsed = parsedArgs();
        Map<String, String> mounts = new HashMap<>(); // mount path -> secret name
        Map<String, String> secretOf = new HashMap<>();
        for (Map<String, Object> v : DeployManifestsTest.<List<Map<String, Object>>>at(yaml("deployment.yaml"),
                "spec", "template", "spec", "volumes")) {
            if (v.get("secret") instanceof Map<?, ?> secret) {
                secretOf.put((String) v.get("name"), (String) secret.get("secretName"));
            }
        }
        for (Map<String, Object> m : DeployManifestsTest.<List<Map<String, Object>>>at(container(), "volumeMounts")) {
            if (secretOf.containsKey((String) m.get("name"))) {
                mounts.put((String) m.get("mountPath"), secretOf.get((String) m.get("name")));
            }
        }
        for (String flag : List.of("--tls-cert", "--tls-key", "--client-ca", "--token-file")) {
            Object value = option(parsed, flag);
            assertTrue(value != null, flag + " is not given");
            String file = value.toString();
            assertTrue(mounts.keySet().stream().anyMatch(dir -> file.startsWith(dir + "/")),
                    flag + "=" + file + " is not in a volume from a Secret " + mounts);
        }
    }

    @Test
    void serviceAndBudgetSelectTheDeploymentsPods() throws Exception {
        Map<String, Object> labels = at(yaml("deployment.yaml"), "spec", "template", "metadata", "labels");
        assertEquals(labels, at(yaml("deployment.yaml"), "spec", "selector", "matchLabels"));
        assertEquals(labels, at(yaml("service.yaml"), "spec", "selector"));
        assertEquals(labels, at(yaml("pdb.yaml"), "spec", "selector", "matchLabels"));
        assertEquals("PodDisruptionBudget", at(yaml("pdb.yaml"), "kind"));
        assertEquals(1, (int) at(yaml("pdb.yaml"), "spec", "maxUnavailable"));
    }

    @Test
    void imageRunsTier2MainAsANonRootUserOnTemurin25() throws Exception {
        String dockerfile = Files.readString(DEPLOY.resolve("Dockerfile"));
        assertTrue(dockerfile.contains("\nFROM eclipse-temurin:25-jre\n"), "base image");
        Matcher user = Pattern.compile("(?m)^USER (\\d+)(:\\d+)?$").matcher(dockerfile);
        assertTrue(user.find() && Integer.parseInt(user.group(1)) != 0, "a numeric non-root USER");
        assertEquals(Integer.parseInt(user.group(1)),
                (int) at(yaml("deployment.yaml"), "spec", "template", "spec", "securityContext", "runAsUser"));
        assertTrue(dockerfile.contains("\"" + Tier2Main.class.getName() + "\"]"), "the entry point runs Tier2Main");
        assertTrue(dockerfile.contains("/opt/orderly/worker/*"), "the worker's jars are on the class path");
    }
}
