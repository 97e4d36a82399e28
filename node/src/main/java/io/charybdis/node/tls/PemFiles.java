package io.charybdis.node.tls;

import io.charybdis.node.config.ConfigurationException;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.spec.InvalidKeySpecException;
import java.security.spec.KeySpec;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.crypto.Cipher;
import javax.crypto.EncryptedPrivateKeyInfo;
import javax.crypto.SecretKeyFactory;
import javax.crypto.spec.PBEKeySpec;

/**
 * PEM text as Cassandra's {@code PEMBasedSslContextFactory} reads it: a key file holds one PKCS#8 private key
 * ({@code BEGIN PRIVATE KEY}, or {@code BEGIN ENCRYPTED PRIVATE KEY} with {@code keystore_password} /
 * {@code private_key_password}) followed by its certificate chain; a trust file holds certificates. Turned into
 * in-memory key stores for the JDK's key and trust managers.
 */
final class PemFiles {

    /** The password of the in-memory key stores built here (never leaves this process). */
    static final char[] STORE_PASSWORD = "charybdis-in-memory".toCharArray();

    private static final Pattern BLOCK = Pattern.compile(
            "-----BEGIN ([A-Z0-9 ]+)-----([A-Za-z0-9+/=\\s]+?)-----END \\1-----");

    private PemFiles() {
    }

    private record Block(String type, byte[] der) {
    }

    static KeyStore keyStore(String pem, String password, String what) {
        PrivateKey key = null;
        List<Certificate> chain = new ArrayList<>();
        for (Block b : blocks(pem, what)) {
            switch (b.type) {
                case "PRIVATE KEY" -> key = privateKey(new PKCS8EncodedKeySpec(b.der), what);
                case "ENCRYPTED PRIVATE KEY" -> key = decrypt(b.der, password, what);
                case "CERTIFICATE" -> chain.add(certificate(b.der, what));
                case "RSA PRIVATE KEY", "EC PRIVATE KEY" -> throw new ConfigurationException(what + " holds a "
                        + b.type + " (PKCS#1/SEC1); convert it to PKCS#8 (openssl pkcs8 -topk8) as Cassandra requires");
                default -> {
                    // other blocks (parameters, comments) are skipped, as Cassandra does
                }
            }
        }
        if (key == null) {
            throw new ConfigurationException(what + " holds no PKCS#8 private key");
        }
        if (chain.isEmpty()) {
            throw new ConfigurationException(what + " holds a private key but no certificate chain");
        }
        try {
            KeyStore ks = KeyStore.getInstance("PKCS12");
            ks.load(null, null);
            ks.setKeyEntry("key", key, STORE_PASSWORD, chain.toArray(Certificate[]::new));
            return ks;
        } catch (IOException | GeneralSecurityException e) {
            throw new ConfigurationException("cannot use the key in " + what + ": " + e.getMessage(), e);
        }
    }

    static KeyStore trustStore(String pem, String what) {
        try {
            KeyStore ks = KeyStore.getInstance("PKCS12");
            ks.load(null, null);
            int n = 0;
            for (Block b : blocks(pem, what)) {
                if (b.type.equals("CERTIFICATE")) {
                    ks.setCertificateEntry("trusted-" + n++, certificate(b.der, what));
                }
            }
            if (n == 0) {
                throw new ConfigurationException(what + " holds no certificate");
            }
            return ks;
        } catch (IOException | GeneralSecurityException e) {
            throw new ConfigurationException("cannot use the certificates in " + what + ": " + e.getMessage(), e);
        }
    }

    private static List<Block> blocks(String pem, String what) {
        List<Block> blocks = new ArrayList<>();
        Matcher m = BLOCK.matcher(pem);
        while (m.find()) {
            try {
                blocks.add(new Block(m.group(1), Base64.getMimeDecoder().decode(m.group(2))));
            } catch (IllegalArgumentException e) {
                throw new ConfigurationException(what + ": a " + m.group(1) + " block is not valid base64");
            }
        }
        if (blocks.isEmpty()) {
            throw new ConfigurationException(what + " is not PEM text (no -----BEGIN ...----- block)");
        }
        return blocks;
    }

    private static Certificate certificate(byte[] der, String what) {
        try {
            return CertificateFactory.getInstance("X.509").generateCertificate(new ByteArrayInputStream(der));
        } catch (GeneralSecurityException e) {
            throw new ConfigurationException(what + " holds a certificate that cannot be read: " + e.getMessage(), e);
        }
    }

    private static PrivateKey decrypt(byte[] der, String password, String what) {
        if (password == null) {
            throw new ConfigurationException(what + " holds an encrypted private key but no password is configured");
        }
        try {
            EncryptedPrivateKeyInfo info = new EncryptedPrivateKeyInfo(der);
            String algorithm = info.getAlgName();
            if (algorithm.equals("PBES2") || algorithm.equals("1.2.840.113549.1.5.13")) {
                // PBES2 (openssl's default): the JDK names the key derivation and cipher in the parameters
                algorithm = info.getAlgParameters().toString();
            }
            SecretKeyFactory f = SecretKeyFactory.getInstance(algorithm);
            Cipher cipher = Cipher.getInstance(algorithm);
            cipher.init(Cipher.DECRYPT_MODE, f.generateSecret(new PBEKeySpec(password.toCharArray())),
                    info.getAlgParameters());
            return privateKey(info.getKeySpec(cipher), what);
        } catch (IOException | GeneralSecurityException e) {
            throw new ConfigurationException("cannot decrypt the private key in " + what + " (wrong password?): "
                    + e.getMessage(), e);
        }
    }

    private static PrivateKey privateKey(KeySpec spec, String what) {
        for (String algorithm : List.of("RSA", "EC", "Ed25519", "Ed448", "DSA")) {
            try {
                return KeyFactory.getInstance(algorithm).generatePrivate(spec);
            } catch (InvalidKeySpecException | java.security.NoSuchAlgorithmException e) {
                // try the next algorithm
            }
        }
        throw new ConfigurationException(what + " holds a private key of an unsupported algorithm");
    }
}
