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
