package dev.orderly.grpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Regression: without BouncyCastle on the class path (a consumer's, and {@code Tier2Main}'s jar), the transport reads
 * only RSA, DSA and EC keys, so a valid Ed25519 or Ed448 key in the PKCS#8 PEM form the guide says is read
 * ({@code openssl genpkey -algorithm ed25519}) was refused with Netty's "File does not contain valid private key":
 * the user looked for a broken file, and was not told what key to give. The credentials are read in a child JVM
 * whose class path is this one's without BouncyCastle (this module's tests have it, and the transport then reads
 * the key).
 */
@Timeout(120)
class AnEdDsaKeyWithoutBouncyCastleIsRefusedSayingWhatToGiveTest {

    @TempDir
    Path dir;

    @Test
    void anEd25519KeyIsSaidToBeEd25519AndWhatToGiveInstead() throws Exception {
        refusedSayingWhatToGive("Ed25519");
    }

    @Test
    void anEd448KeyIsSaidToBeEd448AndWhatToGiveInstead() throws Exception {
        refusedSayingWhatToGive("Ed448");
    }

    private void refusedSayingWhatToGive(String algorithm) throws Exception {
        KeyPair keys = KeyPairGenerator.getInstance(algorithm).generateKeyPair();
        Path key = Files.writeString(dir.resolve("tls.key"), "-----BEGIN PRIVATE KEY-----\n"
                + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII))
                        .encodeToString(keys.getPrivate().getEncoded())
                + "\n-----END PRIVATE KEY-----\n", StandardCharsets.US_ASCII);
        Path certificate = SelfSignedPem.write(keys, algorithm, dir.resolve("tls.crt"));
        for (String side : List.of("server", "client")) {
            String said = withoutBouncyCastle(side, certificate, key);
            assertTrue(said.startsWith("refused: "), side + " side: " + said);
            assertTrue(said.contains(key.toString()), said);
            // the file names do not hold the algorithm: only the message can say it
            assertTrue(said.contains("an " + algorithm + " key"), side + " side, which key it is: " + said);
            assertTrue(said.contains("RSA") && said.contains("EC"), side + " side, what to give: " + said);
        }
    }

    /** What {@link ReadCredentials} said in a JVM with this class path minus BouncyCastle's jars. */
    private String withoutBouncyCastle(String side, Path certificate, Path key) throws Exception {
        String classPath = Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
                .filter(entry -> !Path.of(entry).getFileName().toString().startsWith("bc"))
                .collect(Collectors.joining(File.pathSeparator));
        assertFalse(classPath.contains("bcprov"), classPath);
        List<String> command = new ArrayList<>(List.of(ProcessHandle.current().info().command().orElseThrow(),
                "--enable-native-access=ALL-UNNAMED", "-cp", classPath, ReadCredentials.class.getName(), side,
                certificate.toString(), key.toString()));
        Path out = dir.resolve(side + ".out");
        Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(out.toFile()).start();
        try {
            if (!p.waitFor(60, TimeUnit.SECONDS)) {
                throw new AssertionError("the child still ran after 60 s: " + Files.readString(out));
            }
            String said = Files.readString(out).strip();
            assertEquals(0, p.exitValue(), said);
            return said;
        } finally {
            p.destroyForcibly();
            p.waitFor(10, TimeUnit.SECONDS);
        }
    }


    /** The child: reads the credentials of one side and prints "refused: MESSAGE" or "taken". */
    public static final class ReadCredentials {
        public static void main(String[] args) {
            Path certificate = Path.of(args[1]);
            Path key = Path.of(args[2]);
            try {
                if (args[0].equals("server")) {
                    Tier2Security.serverCredentials(certificate, key, null);
                } else {
                    Tier2Security.clientCredentials(certificate, certificate, key);
                }
                System.out.println("taken");
            } catch (IllegalArgumentException e) {
                System.out.println("refused: " + e.getMessage());
            }
        }
    }
}
