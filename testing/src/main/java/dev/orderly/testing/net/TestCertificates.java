package dev.orderly.testing.net;

import java.io.IOException;
import java.io.Writer;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x500.X500NameBuilder;
import org.bouncycastle.asn1.x500.style.BCStyle;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.openssl.jcajce.JcaPKCS8Generator;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * Certificates made at test time (or when a local fleet starts), never committed: a CA, and leaf certificates it
 * signs, written as PEM files (the certificate, and the key as PKCS#8, as grpc-java's {@code TlsServerCredentials}
 * and {@code TlsChannelCredentials} read them) into a directory the caller owns. Leaves name {@code localhost},
 * {@code 127.0.0.1} and {@code ::1} and are valid for a day, so they serve loopback servers; each serves as a server
 * or a client certificate (mTLS).
 *
 * <pre>{@code
 * TestCertificates ca = TestCertificates.authority(tempDir, "fleet");
 * TestCertificates.Pem server = ca.leaf("tier2");
 * // server: server.certificate(), server.key(); clients trust ca.caCertificate()
 * }</pre>
 *
 * <p>Needs {@code org.bouncycastle:bcpkix-jdk18on} on the class path. This class is thread-safe: the two files of a
 * leaf are always one pair, even when two threads make the same leaf at once.
 *
 * <p>Invariant: {@code OWNERS} maps every file this JVM's CAs wrote to whose it is (a CA's name, and a leaf's name or
 * none for the CA's certificate); a file is written only by its owner, under the owner's lock, which keeps a leaf's
 * certificate and key one pair.
 */
public final class TestCertificates {

    private static final AtomicLong SERIAL = new AtomicLong(System.currentTimeMillis());
    private static final ConcurrentMap<Path, Owner> OWNERS = new ConcurrentHashMap<>();

    /**
     * Whose a file is: CA {@code ca}'s leaf {@code leaf}, or its certificate if {@code leaf} is null; {@code lock} is
     * held while the file is written.
     */
    private record Owner(String ca, String leaf, ReentrantLock lock) {
        Owner(String ca, String leaf) {
            this(ca, leaf, new ReentrantLock());
        }

        boolean same(Owner other) {
            return ca.equals(other.ca) && Objects.equals(leaf, other.leaf);
        }

        @Override
        public String toString() {
            return leaf == null ? "the certificate of CA '" + ca + "'" : "leaf '" + leaf + "' of CA '" + ca + "'";
        }
    }

    /**
     * One certificate and its key, as files.
     *
     * @param certificate the certificate, PEM
     * @param key its private key, PKCS#8 PEM
     */
    public record Pem(Path certificate, Path key) {
    }

    private final Path dir;
    private final String name;
    private final KeyPair caKeys;
    private final X509Certificate ca;
    private final Path caFile;

    private TestCertificates(Path dir, String name) throws IOException, GeneralSecurityException {
        this.dir = dir;
        this.name = name;
        this.caKeys = keys();
        X500Name subject = caName(name);
        X509v3CertificateBuilder b = builder(subject, subject, caKeys);
        b.addExtension(Extension.basicConstraints, true, new BasicConstraints(true));
        b.addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.keyCertSign | KeyUsage.cRLSign));
        this.ca = sign(b, caKeys);
        this.caFile = dir.resolve(name + "-ca.pem");
        Owner owner = claim(caFile, new Owner(name, null), "name '" + name + "'");
        owner.lock().lock();
        try {
            write(caFile, ca);
        } finally {
            owner.lock().unlock();
        }
    }

    /**
     * A new CA (an EC P-256 key) whose files go in {@code dir}, prefixed with {@code name}: any text that is a file
     * name (a comma or a plus is escaped in the certificate). A CA of the same name in the same directory replaces
     * this one's files.
     *
     * @throws IllegalArgumentException if {@code name} is blank or holds {@code /} or {@code \}, or if its
     *         certificate's file is a leaf of another CA of this JVM (CA {@code a}'s {@code leaf("b-ca")} is CA
     *         {@code a-b}'s {@code a-b-ca.pem})
     * @throws IOException if a file cannot be written
     * @throws GeneralSecurityException if the JDK cannot make or sign the keys
     */
    public static TestCertificates authority(Path dir, String name) throws IOException, GeneralSecurityException {
        Objects.requireNonNull(dir, "dir");
        return new TestCertificates(dir, fileName("name", name));
    }

    /** The CA's certificate, PEM. */
    public Path caCertificate() {
        return caFile;
    }

    /**
     * A leaf for {@code localhost}, {@code 127.0.0.1} and {@code ::1}, signed by this CA:
     * {@code <name>-<leafName>.pem} and {@code .key} in the CA's directory; {@code leafName} is held to the rule of
     * {@link #authority}'s name, and is not {@code ca} in any case ({@code <name>-ca.pem} is the CA's certificate).
     * The same leaf again makes a new pair in the same files.
     *
     * @throws IllegalArgumentException if {@code leafName} is blank, holds {@code /} or {@code \}, or is {@code ca};
     *         or if its files are another CA's of this JVM (CA {@code a}'s {@code leaf("b-c")} is CA {@code a-b}'s
     *         {@code leaf("c")})
     * @throws IOException if a file cannot be written
     * @throws GeneralSecurityException if the JDK cannot make or sign the keys
     */
    public Pem leaf(String leafName) throws IOException, GeneralSecurityException {
        fileName("leafName", leafName);
        // Its certificate would overwrite the CA's (in any case: some file systems ignore it), and every client that
        // trusts caCertificate() would trust this leaf alone.
        if (leafName.equalsIgnoreCase("ca")) {
            throw new IllegalArgumentException("leafName must not be '" + leafName + "': " + caFile.getFileName()
                    + " is the CA's certificate");
        }
        Pem pem = new Pem(dir.resolve(name + "-" + leafName + ".pem"), dir.resolve(name + "-" + leafName + ".key"));
        // "a-b" + "c" and "a" + "b-c" name the same files (the key's as the certificate's): the second CA's leaf
        // would replace the first's, which then no longer verifies against its own CA.
        Owner owner = claim(pem.certificate(), new Owner(name, leafName),
                "leafName '" + leafName + "' of CA '" + name + "'");
        KeyPair keys = keys();
        X509v3CertificateBuilder b = builder(caName(name), commonName(leafName), keys);
        b.addExtension(Extension.basicConstraints, true, new BasicConstraints(false));
        b.addExtension(Extension.subjectAlternativeName, false, new GeneralNames(new GeneralName[] {
                new GeneralName(GeneralName.dNSName, "localhost"),
                new GeneralName(GeneralName.iPAddress, "127.0.0.1"),
                // A server dialed at [::1] (a TcpProxy's hostPort() when the JVM prefers IPv6) is loopback too.
                new GeneralName(GeneralName.iPAddress, "::1")}));
        X509Certificate cert = sign(b, caKeys);
        // Both files under their owner: a leaf written by two threads at once is one pair or the other, not a mix.
        owner.lock().lock();
        try {
            write(pem.certificate(), cert);
            try (Writer w = Files.newBufferedWriter(pem.key(), StandardCharsets.US_ASCII);
                 JcaPEMWriter pemWriter = new JcaPEMWriter(w)) {
                pemWriter.writeObject(new JcaPKCS8Generator(keys.getPrivate(), null));
            }
        } finally {
            owner.lock().unlock();
        }
        return pem;
    }

    /**
     * The owner of {@code file}: the first to claim it, if it is {@code owner}'s CA and leaf; refused, naming
     * {@code what} and the file's owner, if that is another.
     */
    private static Owner claim(Path file, Owner owner, String what) {
        Path key = file.toAbsolutePath().normalize();
        Owner had = OWNERS.putIfAbsent(key, owner);
        if (had == null) {
            return owner;
        }
        if (!had.same(owner)) {
            throw new IllegalArgumentException(what + " would write " + file + ", which is " + had);
        }
        return had;
    }

    /**
     * {@code value} if it can be part of a file name in the directory: a null, blank or path-like name made files
     * named "null", or files in another directory.
     */
    private static String fileName(String argument, String value) {
        Objects.requireNonNull(value, argument);
        if (value.isBlank() || value.indexOf('/') >= 0 || value.indexOf('\\') >= 0) {
            throw new IllegalArgumentException(argument + " must be a file name, not blank and without / or \\, was '"
                    + value + "'");
        }
        return value;
    }

    private static X500Name caName(String name) {
        return commonName(name + " test CA");
    }

    /** A subject of one CN, built (not parsed), so that a comma, a plus or an equals sign in it is escaped. */
    private static X500Name commonName(String cn) {
        return new X500NameBuilder(BCStyle.INSTANCE).addRDN(BCStyle.CN, cn).build();
    }

    private static KeyPair keys() throws GeneralSecurityException {
        KeyPairGenerator g = KeyPairGenerator.getInstance("EC");
        g.initialize(256);
        return g.generateKeyPair();
    }

    private static X509v3CertificateBuilder builder(X500Name issuer, X500Name subject, KeyPair keys) {
        Instant now = Instant.now();
        return new JcaX509v3CertificateBuilder(issuer, BigInteger.valueOf(SERIAL.incrementAndGet()),
                Date.from(now.minus(Duration.ofHours(1))), Date.from(now.plus(Duration.ofDays(1))), subject,
                keys.getPublic());
    }

    private static X509Certificate sign(X509v3CertificateBuilder b, KeyPair issuerKeys)
            throws GeneralSecurityException {
        try {
            return new JcaX509CertificateConverter().getCertificate(
                    b.build(new JcaContentSignerBuilder("SHA256withECDSA").build(issuerKeys.getPrivate())));
        } catch (OperatorCreationException e) {
            throw new GeneralSecurityException(e);
        }
    }

    private static void write(Path file, Object pemObject) throws IOException {
        try (Writer w = Files.newBufferedWriter(file, StandardCharsets.US_ASCII);
             JcaPEMWriter pemWriter = new JcaPEMWriter(w)) {
            pemWriter.writeObject(pemObject);
        }
    }
}
