package io.charybdis.node.tls;

import io.charybdis.node.config.ConfigurationException;
import io.charybdis.node.config.EncryptionOptions;
import io.netty.buffer.ByteBufAllocator;
import io.netty.handler.ssl.ClientAuth;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslProvider;
import io.netty.util.ReferenceCountUtil;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.util.List;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.TrustManagerFactory;

/**
 * Turns {@link EncryptionOptions} into key and trust managers and Netty {@link SslContext}s (the JDK provider; no
 * OpenSSL needed). Every problem (a missing file, a wrong password, an unknown cipher suite or protocol) becomes a
 * {@link ConfigurationException} naming the option, at startup: each context built here is tried once by creating
 * an engine with it.
 */
public final class TlsContexts {

    private TlsContexts() {
    }

    /** The key manager of {@code options} (its keystore; the outbound one when {@code outbound} and configured). */
    public static KeyManagerFactory keyManagers(EncryptionOptions options, boolean outbound) {
        String name = options.name();
        try {
            KeyStore ks;
            char[] password;
            boolean useOutbound = outbound && (options.outboundKeystore() != null
                    || options.pemParameters().containsKey("outbound_private_key"));
            String file = useOutbound ? options.outboundKeystore() : options.keystore();
            String filePassword = useOutbound ? options.outboundKeystorePassword() : options.keystorePassword();
            String inlineKey = options.pemParameters().get(useOutbound ? "outbound_private_key" : "private_key");
            if (options.pem()) {
                String pemPassword = options.pemParameters().getOrDefault(
                        useOutbound ? "outbound_private_key_password" : "private_key_password", filePassword);
                String text = inlineKey != null ? inlineKey
                        : read(name + (useOutbound ? ".outbound_keystore" : ".keystore"), file);
                ks = PemFiles.keyStore(text, pemPassword, name + (useOutbound ? ".outbound_keystore" : ".keystore"));
                password = PemFiles.STORE_PASSWORD;
            } else {
                String key = name + (useOutbound ? ".outbound_keystore" : ".keystore");
                ks = load(key, file, filePassword, options.storeType());
                password = filePassword == null ? new char[0] : filePassword.toCharArray();
            }
            String algorithm = options.algorithm() != null ? options.algorithm() : KeyManagerFactory.getDefaultAlgorithm();
            KeyManagerFactory kmf = KeyManagerFactory.getInstance(algorithm);
            kmf.init(ks, password);
            return kmf;
        } catch (GeneralSecurityException e) {
            throw new ConfigurationException("cannot use the key of " + name + ": " + e.getMessage(), e);
        }
    }

    /** The trust manager of {@code options}, or null when no truststore is configured (the JDK's default CAs). */
    public static TrustManagerFactory trustManagers(EncryptionOptions options) {
        String name = options.name();
        String inline = options.pemParameters().get("trusted_certificates");
        if (inline == null && options.truststore() == null) {
            return null;
        }
        try {
            KeyStore ts;
            if (options.pem()) {
                ts = PemFiles.trustStore(inline != null ? inline : read(name + ".truststore", options.truststore()),
                        name + ".truststore");
            } else {
                ts = load(name + ".truststore", options.truststore(), options.truststorePassword(), options.storeType());
            }
            TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            tmf.init(ts);
            return tmf;
        } catch (GeneralSecurityException e) {
            throw new ConfigurationException("cannot use the truststore of " + name + ": " + e.getMessage(), e);
        }
    }

    /** The server side of {@code options}: its key, and client certificates checked when required. */
    public static SslContext server(EncryptionOptions options) {
        String name = options.name();
        if (options.keystore() == null && !options.pemParameters().containsKey("private_key")) {
            throw new ConfigurationException(name + " turns TLS on but sets no keystore (or PEM private_key)");
        }
        TrustManagerFactory tmf = trustManagers(options);
        if (options.requireClientAuth() && tmf == null) {
            throw new ConfigurationException(name + ".require_client_auth=true needs a truststore to check client"
                    + " certificates against");
        }
        try {
            SslContextBuilder b = SslContextBuilder.forServer(keyManagers(options, false)).sslProvider(SslProvider.JDK)
                    .clientAuth(options.requireClientAuth() ? ClientAuth.REQUIRE : ClientAuth.NONE);
            if (tmf != null) {
                b.trustManager(tmf);
            }
            return tried(name, configure(b, options).build(), options);
        } catch (IOException | IllegalArgumentException e) {
            throw new ConfigurationException("cannot set up TLS for " + name + ": " + e.getMessage(), e);
        }
    }

    /** The client side of {@code options} (internode outbound): its outbound key, peers checked by the truststore. */
    public static SslContext client(EncryptionOptions options) {
        String name = options.name();
        try {
            SslContextBuilder b = SslContextBuilder.forClient().sslProvider(SslProvider.JDK);
            if (options.keystore() != null || options.outboundKeystore() != null
                    || options.pemParameters().containsKey("private_key")
                    || options.pemParameters().containsKey("outbound_private_key")) {
                b.keyManager(keyManagers(options, true));
            }
            TrustManagerFactory tmf = trustManagers(options);
            if (tmf != null) {
                b.trustManager(tmf);
            }
            if (options.requireEndpointVerification()) {
                b.endpointIdentificationAlgorithm("HTTPS");
            } else {
                b.endpointIdentificationAlgorithm(null);
            }
            return tried(name, configure(b, options).build(), options);
        } catch (IOException | IllegalArgumentException e) {
            throw new ConfigurationException("cannot set up TLS for " + name + ": " + e.getMessage(), e);
        }
    }

    /** A JDK {@link SSLContext} (for JMX's RMI sockets) with the key and trust of {@code options}. */
    public static SSLContext jdk(EncryptionOptions options) {
        String name = options.name();
        try {
            String protocol = options.protocol() == null ? "TLS" : options.protocol();
            SSLContext ctx = SSLContext.getInstance(protocol);
            TrustManagerFactory tmf = trustManagers(options);
            ctx.init(keyManagers(options, false).getKeyManagers(), tmf == null ? null : tmf.getTrustManagers(), null);
            SSLParameters p = ctx.getDefaultSSLParameters();
            if (options.enabledProtocols() != null) {
                p.setProtocols(options.enabledProtocols().toArray(String[]::new));
            }
            if (!options.cipherSuites().isEmpty()) {
                p.setCipherSuites(options.cipherSuites().toArray(String[]::new));
            }
            ctx.createSSLEngine().setSSLParameters(p); // fails here on an unknown protocol or cipher suite
            return ctx;
        } catch (GeneralSecurityException | IllegalArgumentException e) {
            throw new ConfigurationException("cannot set up TLS for " + name + ": " + e.getMessage(), e);
        }
    }

    private static SslContextBuilder configure(SslContextBuilder b, EncryptionOptions options) {
        List<String> protocols = options.enabledProtocols();
        if (protocols != null) {
            b.protocols(protocols);
        }
        if (!options.cipherSuites().isEmpty()) {
            b.ciphers(options.cipherSuites());
        }
        return b;
    }

    /** Creates one engine, so that an unknown protocol or cipher suite fails at startup, not at the first client. */
    private static SslContext tried(String name, SslContext ctx, EncryptionOptions options) {
        SSLEngine engine;
        try {
            engine = ctx.newEngine(ByteBufAllocator.DEFAULT);
        } catch (RuntimeException e) {
            throw new ConfigurationException("cannot set up TLS for " + name + " (protocol=" + options.protocol()
                    + " accepted_protocols=" + options.acceptedProtocols() + " cipher_suites=" + options.cipherSuites()
                    + "): " + e.getMessage(), e);
        }
        if (engine.getEnabledCipherSuites().length == 0) {
            throw new ConfigurationException(name + ".cipher_suites=" + options.cipherSuites()
                    + " enables no cipher suite this JVM supports");
        }
        ReferenceCountUtil.release(engine);
        return ctx;
    }

    private static String read(String key, String file) {
        if (file == null) {
            throw new ConfigurationException(key + " is not set");
        }
        try {
            return Files.readString(Path.of(file), StandardCharsets.US_ASCII);
        } catch (NoSuchFileException e) {
            throw new ConfigurationException(key + "=" + file + " does not exist");
        } catch (IOException e) {
            throw new ConfigurationException("cannot read " + key + "=" + file + ": " + e, e);
        }
    }

    private static KeyStore load(String key, String file, String password, String storeType) {
        if (file == null) {
            throw new ConfigurationException(key + " is not set");
        }
        Path path = Path.of(file);
        if (!Files.isRegularFile(path)) {
            throw new ConfigurationException(key + "=" + file + " does not exist");
        }
        String type = storeType == null ? "JKS" : storeType;
        try (InputStream in = Files.newInputStream(path)) {
            KeyStore ks = KeyStore.getInstance(type);
            ks.load(in, password == null ? null : password.toCharArray());
            return ks;
        } catch (IOException | GeneralSecurityException e) {
            throw new ConfigurationException("cannot read " + key + "=" + file + " (store_type " + type + "): "
                    + e.getMessage(), e);
        }
    }
}
