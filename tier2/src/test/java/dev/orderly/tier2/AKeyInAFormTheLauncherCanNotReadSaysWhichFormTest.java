package dev.orderly.tier2;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orderly.testing.net.TestCertificates;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyFactory;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.Base64;
import org.bouncycastle.jce.provider.BouncyCastleProvider;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.openssl.jcajce.JcaPKCS8Generator;
import org.bouncycastle.openssl.jcajce.JceOpenSSLPKCS8EncryptorBuilder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Regression: {@code --tls-key} given a good key in a form the transport does not read (an encrypted PKCS#8 key, as
 * {@code openssl pkcs8 -topk8} writes by default; a PKCS#1 or SEC1 key, what {@code openssl genrsa -traditional},
 * {@code openssl ecparam -genkey} and cert-manager's default encoding write, when BouncyCastle is not on the class
 * path, as in the launcher's own jar) was refused with Netty's "File does not contain valid private key: FILE": the
 * key is valid, so the user looked for a broken file, and was not told the form the launcher needs.
 */
@Timeout(60)
class AKeyInAFormTheLauncherCanNotReadSaysWhichFormTest {

    @TempDir
    Path dir;

    @Test
    void anEncryptedKeyIsSaidToBeEncryptedAndWhatToGiveInstead() throws Exception {
        TestCertificates.Pem pem = TestCertificates.authority(dir, "fleet").leaf("tier2");
        String body = Files.readString(pem.key()).replaceAll("-----[A-Z ]+-----", "").replaceAll("\\s", "");
        var key = KeyFactory.getInstance("EC")
                .generatePrivate(new PKCS8EncodedKeySpec(Base64.getDecoder().decode(body)));
        StringWriter out = new StringWriter();
        try (JcaPEMWriter w = new JcaPEMWriter(out)) {
            w.writeObject(new JcaPKCS8Generator(key, new JceOpenSSLPKCS8EncryptorBuilder(JcaPKCS8Generator.AES_256_CBC)
                    .setProvider(new BouncyCastleProvider()).setPassword("secret".toCharArray()).build()));
        }
        Path encrypted = Files.writeString(dir.resolve("tls-encrypted.key"), out.toString());
        assertTrue(out.toString().startsWith("-----BEGIN ENCRYPTED PRIVATE KEY-----"), out.toString());
        StringWriter err = new StringWriter();
        int code = Tier2Main.execute(new String[] {"--outputs=" + dir.resolve("out"), "--worker=no.such.Worker",
            "--tls-cert=" + pem.certificate(), "--tls-key=" + encrypted},
                new PrintWriter(new StringWriter(), true), new PrintWriter(err, true));
        String said = err.toString();
        assertEquals(2, code, said);
        assertEquals(1, said.strip().lines().count(), said);
        assertTrue(said.contains(encrypted.toString()), said);
        assertFalse(said.contains("java.") || said.contains("Exception"), said);
        assertTrue(said.contains("encrypted") && said.contains("PKCS#8"), "which form, and what to give: " + said);
    }
}
