package io.charybdis.node.tls;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.security.KeyStore;
import org.junit.jupiter.api.Test;

/**
 * PEM keys and certificates as Cassandra's PEMBasedSslContextFactory takes them (encrypted PKCS#8 keys, as openssl
 * and Python's cryptography write them, are checked in tests/python/test_tls.py).
 */
class PemFilesTest {

    @Test
    void shouldReadAPlainKeyWithItsChain() throws Exception {
        String pem = Files.readString(TestCertificates.shared().path("node.pem"));
        KeyStore ks = PemFiles.keyStore(pem, null, "test.keystore");
        assertThat(ks.getCertificateChain("key")).hasSize(2);
        assertThat(ks.getKey("key", PemFiles.STORE_PASSWORD).getAlgorithm()).isEqualTo("RSA");
    }

    @Test
    void shouldNameWhatIsMissing() throws Exception {
        String pem = Files.readString(TestCertificates.shared().path("node.pem"));
        String keyOnly = pem.substring(0, pem.indexOf("-----BEGIN CERTIFICATE-----"));
        assertThatThrownBy(() -> PemFiles.keyStore(keyOnly, null, "x.keystore")).hasMessageContaining("no certificate chain");
        assertThatThrownBy(() -> PemFiles.keyStore("not pem", null, "x.keystore")).hasMessageContaining("not PEM");
        assertThatThrownBy(() -> PemFiles.keyStore("-----BEGIN RSA PRIVATE KEY-----\nAAAA\n-----END RSA PRIVATE KEY-----\n",
                null, "x.keystore")).hasMessageContaining("PKCS#8");
        assertThat(PemFiles.trustStore(Files.readString(TestCertificates.shared().path("ca.pem")), "t").size()).isEqualTo(1);
    }
}
