package io.charybdis.node.tls;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.Key;
import java.security.KeyStore;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Test certificates made at test time with the JDK's {@code keytool} (no private key is ever committed): a CA, a
 * node certificate signed by it (SAN 127.0.0.1 and localhost), a client certificate signed by it, and a second,
 * untrusted CA's client certificate. Each key store exists as PKCS12 and JKS, the keys also as PEM files in
 * Cassandra's {@code PEMBasedSslContextFactory} form (PKCS#8 key followed by its chain).
 */
public final class TestCertificates {
    public static final String PASSWORD = "changeit-test";

    public final Path dir;

    private TestCertificates(Path dir) {
        this.dir = dir;
    }

    private static TestCertificates shared;

    /**
     * One set per test JVM (keytool takes seconds per step), in a temporary directory removed when the JVM exits;
     * tests must not modify its files.
     */
    public static synchronized TestCertificates shared() throws Exception {
        if (shared == null) {
            Path dir = Files.createTempDirectory("charybdis-test-certs");
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                try (var files = Files.walk(dir)) {
                    files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
                } catch (IOException e) {
                    // a temporary directory left behind
                }
            }));
            shared = create(dir);
        }
        return shared;
    }

    /** Creates every file under {@code dir} (a few seconds: one keytool run per step). */
    public static TestCertificates create(Path dir) throws Exception {
        Files.createDirectories(dir);
        TestCertificates c = new TestCertificates(dir);
        c.keyPair("ca", "CN=Charybdis Test CA", "bc:c");
        c.keyPair("rogue-ca", "CN=Rogue CA", "bc:c");
        c.signed("node", "CN=charybdis-node", "ca", "san=ip:127.0.0.1,ip:127.0.0.2,ip:127.0.0.3,dns:localhost");
        c.signed("client", "CN=charybdis-client", "ca", null);
        c.signed("rogue-client", "CN=rogue-client", "rogue-ca", null);
        c.keytool("-exportcert", "-rfc", "-alias", "ca", "-keystore", c.p12("ca"), "-storepass", PASSWORD,
                "-file", c.file("ca.pem"));
        c.keytool("-importcert", "-noprompt", "-alias", "ca", "-file", c.file("ca.pem"), "-keystore",
                c.file("truststore.p12"), "-storetype", "PKCS12", "-storepass", PASSWORD);
        c.keytool("-importcert", "-noprompt", "-alias", "ca", "-file", c.file("ca.pem"), "-keystore",
                c.file("truststore.jks"), "-storetype", "JKS", "-storepass", PASSWORD);
        for (String name : List.of("node", "client", "rogue-client")) {
            c.keytool("-importkeystore", "-noprompt", "-srckeystore", c.p12(name), "-srcstoretype", "PKCS12",
                    "-srcstorepass", PASSWORD, "-destkeystore", c.file(name + ".jks"), "-deststoretype", "JKS",
                    "-deststorepass", PASSWORD, "-destkeypass", PASSWORD);
            c.pem(name);
        }
        return c;
    }

    /** {@code name}.p12, .jks, .pem (key and chain); ca.pem; truststore.p12/.jks. */
    public Path path(String fileName) {
        return dir.resolve(fileName);
    }

    /** A client SSL context trusting the test CA, presenting {@code clientKey}'s certificate unless it is null. */
    public javax.net.ssl.SSLContext clientContext(String clientKey) throws Exception {
        javax.net.ssl.TrustManagerFactory tmf = javax.net.ssl.TrustManagerFactory.getInstance(
                javax.net.ssl.TrustManagerFactory.getDefaultAlgorithm());
        tmf.init(load("truststore.p12"));
        javax.net.ssl.KeyManagerFactory kmf = null;
        if (clientKey != null) {
            kmf = javax.net.ssl.KeyManagerFactory.getInstance(javax.net.ssl.KeyManagerFactory.getDefaultAlgorithm());
            kmf.init(load(clientKey + ".p12"), PASSWORD.toCharArray());
        }
        javax.net.ssl.SSLContext ctx = javax.net.ssl.SSLContext.getInstance("TLS");
        ctx.init(kmf == null ? null : kmf.getKeyManagers(), tmf.getTrustManagers(), null);
        return ctx;
    }

    /** {@code client_encryption_options} requiring TLS and client certificates, with the node's PKCS12 stores. */
    public io.charybdis.node.config.EncryptionOptions requiredClientTls() {
        return io.charybdis.node.config.EncryptionOptions.parse("client_encryption_options", java.util.Map.of(
                "enabled", true, "require_client_auth", true, "store_type", "PKCS12",
                "keystore", path("node.p12").toString(), "keystore_password", PASSWORD,
                "truststore", path("truststore.p12").toString(), "truststore_password", PASSWORD), false);
    }

    private KeyStore load(String name) throws IOException, GeneralSecurityException {
        KeyStore ks = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(path(name))) {
            ks.load(in, PASSWORD.toCharArray());
        }
        return ks;
    }

    private String file(String name) {
        return dir.resolve(name).toString();
    }

    private String p12(String name) {
        return file(name + ".p12");
    }

    private void keyPair(String name, String dname, String ext) throws Exception {
        List<String> args = new ArrayList<>(List.of("-genkeypair", "-alias", name, "-keyalg", "RSA", "-keysize", "2048",
                "-dname", dname, "-validity", "3", "-keystore", p12(name), "-storetype", "PKCS12", "-storepass", PASSWORD));
        if (ext != null) {
            args.add("-ext");
            args.add(ext);
        }
        keytool(args.toArray(String[]::new));
    }

    private void signed(String name, String dname, String ca, String san) throws Exception {
        keyPair(name, dname, null);
        keytool("-certreq", "-alias", name, "-keystore", p12(name), "-storepass", PASSWORD, "-file", file(name + ".csr"));
        List<String> args = new ArrayList<>(List.of("-gencert", "-rfc", "-alias", ca, "-keystore", p12(ca), "-storepass",
                PASSWORD, "-infile", file(name + ".csr"), "-outfile", file(name + ".crt"), "-validity", "3"));
        if (san != null) {
            args.add("-ext");
            args.add(san);
        }
        keytool(args.toArray(String[]::new));
        keytool("-exportcert", "-rfc", "-alias", ca, "-keystore", p12(ca), "-storepass", PASSWORD, "-file",
                file(ca + ".crt"));
        keytool("-importcert", "-noprompt", "-alias", ca, "-file", file(ca + ".crt"), "-keystore", p12(name),
                "-storepass", PASSWORD);
        // the signed certificate replaces the self-signed one; keytool builds the chain up to the CA just imported
        keytool("-importcert", "-noprompt", "-alias", name, "-file", file(name + ".crt"), "-keystore", p12(name),
                "-storepass", PASSWORD);
    }

    /** {@code name}.pem: the PKCS#8 key and its chain; {@code name}-encrypted.pem would need openssl, not done. */
    private void pem(String name) throws IOException, GeneralSecurityException {
        KeyStore ks = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(path(name + ".p12"))) {
            ks.load(in, PASSWORD.toCharArray());
        }
        Key key = ks.getKey(name, PASSWORD.toCharArray());
        StringBuilder sb = new StringBuilder();
        sb.append(block("PRIVATE KEY", key.getEncoded()));
        for (var cert : ks.getCertificateChain(name)) {
            sb.append(block("CERTIFICATE", cert.getEncoded()));
        }
        Files.writeString(path(name + ".pem"), sb.toString(), StandardCharsets.US_ASCII);
        Files.writeString(path(name + ".key.pem"), block("PRIVATE KEY", key.getEncoded()), StandardCharsets.US_ASCII);
        StringBuilder chain = new StringBuilder();
        for (var cert : ks.getCertificateChain(name)) {
            chain.append(block("CERTIFICATE", cert.getEncoded()));
        }
        Files.writeString(path(name + ".crt.pem"), chain.toString(), StandardCharsets.US_ASCII);
    }

    private static String block(String type, byte[] der) {
        return "-----BEGIN " + type + "-----\n"
                + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(der)
                + "\n-----END " + type + "-----\n";
    }

    private void keytool(String... args) throws Exception {
        Path keytool = Path.of(System.getProperty("java.home"), "bin", "keytool");
        List<String> cmd = new ArrayList<>();
        cmd.add(keytool.toString());
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        byte[] out = p.getInputStream().readAllBytes();
        if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new IllegalStateException("keytool " + String.join(" ", args) + " failed: "
                    + new String(out, StandardCharsets.UTF_8));
        }
    }
}
