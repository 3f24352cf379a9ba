package dev.orderly.tier2;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.auth.credentials.AwsCredentials;
import software.amazon.awssdk.auth.credentials.WebIdentityTokenFileCredentialsProvider;

/**
 * deploy/kubernetes/deployment.yaml and run-your-own-tier2.md offer "give the pods a role instead" of the S3 keys. On
 * EKS a pod's role (IRSA) reaches the process as {@code AWS_ROLE_ARN} and {@code AWS_WEB_IDENTITY_TOKEN_FILE}, which
 * the SDK's default chain (the one {@code Tier2Main} asks) serves with {@link WebIdentityTokenFileCredentialsProvider}:
 * it trades the token for keys at STS, and only with STS's client on the tier2's class path. Without it the tier2 exits
 * 1 with "no AWS credentials ... set ... or a role", a role set. Here against a fake STS on loopback, the settings
 * given as the system properties the chain reads beside the environment variables.
 */
class APodRoleFromAWebIdentityTokenGivesTheTier2ItsS3CredentialsTest {

    private static final String[] PROPERTIES = {"aws.webIdentityTokenFile", "aws.roleArn", "aws.roleSessionName",
        "aws.region", "aws.endpointUrlSts"};

    @Test
    void theWebIdentityTokenIsTradedForKeys(@TempDir Path dir) throws Exception {
        Path token = Files.writeString(dir.resolve("token"), "eyJhbGciOiJSUzI1NiJ9.projected.token");
        AtomicReference<String> asked = new AtomicReference<>();
        HttpServer sts = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        sts.createContext("/", exchange -> {
            asked.set(new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
            byte[] body = ("<AssumeRoleWithWebIdentityResponse xmlns=\"https://sts.amazonaws.com/doc/2011-06-15/\">"
                    + "<AssumeRoleWithWebIdentityResult><Credentials><AccessKeyId>ASIAPODROLE</AccessKeyId>"
                    + "<SecretAccessKey>pod-secret</SecretAccessKey><SessionToken>pod-session</SessionToken>"
                    + "<Expiration>2099-01-01T00:00:00Z</Expiration></Credentials>"
                    + "<AssumedRoleUser><Arn>arn:aws:sts::123456789012:assumed-role/orderly-tier2/pod</Arn>"
                    + "<AssumedRoleId>AROAPOD:pod</AssumedRoleId></AssumedRoleUser>"
                    + "</AssumeRoleWithWebIdentityResult><ResponseMetadata><RequestId>1</RequestId>"
                    + "</ResponseMetadata></AssumeRoleWithWebIdentityResponse>").getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", "text/xml");
            exchange.sendResponseHeaders(200, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        });
        sts.start();
        Map<String, String> before = new HashMap<>();
        for (String p : PROPERTIES) {
            before.put(p, System.getProperty(p));
        }
        try {
            System.setProperty("aws.webIdentityTokenFile", token.toString());
            System.setProperty("aws.roleArn", "arn:aws:iam::123456789012:role/orderly-tier2");
            System.setProperty("aws.roleSessionName", "orderly-tier2-pod");
            System.setProperty("aws.region", "eu-west-1"); // the manifest's AWS_REGION
            System.setProperty("aws.endpointUrlSts", "http://127.0.0.1:" + sts.getAddress().getPort());
            try (WebIdentityTokenFileCredentialsProvider provider = WebIdentityTokenFileCredentialsProvider.create()) {
                AwsCredentials keys = provider.resolveCredentials();
                assertEquals("ASIAPODROLE", keys.accessKeyId());
            }
            assertTrue(asked.get() != null && asked.get().contains("Action=AssumeRoleWithWebIdentity"),
                    "asked STS: " + asked.get());
        } finally {
            sts.stop(0);
            before.forEach((p, v) -> {
                if (v == null) {
                    System.clearProperty(p);
                } else {
                    System.setProperty(p, v);
                }
            });
        }
    }
}
