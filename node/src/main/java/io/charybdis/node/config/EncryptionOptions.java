package io.charybdis.node.config;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * {@code client_encryption_options} and {@code server_encryption_options} as Cassandra 5.0's cassandra.yaml writes
 * them. Only the settings are held here; {@code io.charybdis.node.tls.TlsContexts} turns them into SSL contexts (and
 * fails startup when a store cannot be read).
 *
 * <p>Which connections use TLS follows Cassandra 5.0's {@code EncryptionOptions.applyConfig}:
 * <ul>
 *   <li>client: encrypted when {@code enabled: true}; {@code optional} (TLS and plain text on the same port, told
 *       apart by the first bytes) when {@code optional: true}, or when {@code optional} is not set, {@code enabled}
 *       is false and the keystore exists.</li>
 *   <li>server (internode): {@code internode_encryption: none|all|dc|rack} says which outbound connections are
 *       encrypted; {@code enabled} is not accepted there, as in Cassandra 5.0.</li>
 * </ul>
 * Keystores and truststores are JKS or PKCS12 files ({@code store_type}), or PEM with
 * {@code ssl_context_factory: {class_name: org.apache.cassandra.security.PEMBasedSslContextFactory}}: then
 * {@code keystore}/{@code truststore} are PEM files, or the PEM text is given inline as the factory's parameters
 * {@code private_key}, {@code private_key_password}, {@code trusted_certificates}. A key this class does not know
 * stops startup naming it.
 */
public final class EncryptionOptions {

    /** Cassandra's default factory (JKS/PKCS12 files). */
    public static final String DEFAULT_FACTORY = "org.apache.cassandra.security.DefaultSslContextFactory";
    /** Cassandra's PEM factory. */
    public static final String PEM_FACTORY = "org.apache.cassandra.security.PEMBasedSslContextFactory";

    /** How a listening socket treats TLS. */
    public enum Policy { UNENCRYPTED, OPTIONAL, ENCRYPTED }

    /** Cassandra's {@code internode_encryption}. */
    public enum InternodeEncryption { NONE, ALL, DC, RACK }

    private static final Set<String> COMMON_KEYS = Set.of("enabled", "optional", "keystore", "keystore_password",
            "truststore", "truststore_password", "cipher_suites", "protocol", "accepted_protocols", "algorithm",
            "store_type", "require_client_auth", "require_endpoint_verification", "ssl_context_factory");
    private static final Set<String> SERVER_KEYS = Set.of("internode_encryption", "legacy_ssl_storage_port_enabled",
            "outbound_keystore", "outbound_keystore_password");
    private static final Set<String> PEM_PARAMETERS = Set.of("private_key", "private_key_password",
            "trusted_certificates", "outbound_private_key", "outbound_private_key_password");

    private final String name;
    private final Boolean enabled;
    private final Boolean optional;
    private final InternodeEncryption internodeEncryption;
    private final String keystore;
    private final String keystorePassword;
    private final String outboundKeystore;
    private final String outboundKeystorePassword;
    private final String truststore;
    private final String truststorePassword;
    private final List<String> cipherSuites;
    private final String protocol;
    private final List<String> acceptedProtocols;
    private final String algorithm;
    private final String storeType;
    private final boolean requireClientAuth;
    private final boolean requireEndpointVerification;
    private final String factory;
    private final Map<String, String> pemParameters;

    private EncryptionOptions(String name, Map<?, ?> raw, boolean server) {
        this.name = name;
        Set<String> unknown = new TreeSet<>();
        for (Object k : raw.keySet()) {
            String key = String.valueOf(k);
            if (!COMMON_KEYS.contains(key) && !(server && SERVER_KEYS.contains(key))) {
                unknown.add(name + "." + key);
            }
        }
        if (!unknown.isEmpty()) {
            throw new ConfigurationException("unsupported encryption option(s) " + unknown + "; supported: "
                    + new TreeSet<>(server ? union(COMMON_KEYS, SERVER_KEYS) : COMMON_KEYS));
        }
        if (server && raw.get("enabled") != null) {
            throw new ConfigurationException(name + ".enabled is not supported (as in Cassandra 5.0): set "
                    + name + ".internode_encryption to all, dc or rack");
        }
        if (server && bool(raw, "legacy_ssl_storage_port_enabled", false)) {
            throw new ConfigurationException(name + ".legacy_ssl_storage_port_enabled=true is not supported: Charybdis"
                    + " has no separate ssl_storage_port; TLS and plain internode traffic share storage_port");
        }
        enabled = raw.get("enabled") == null ? null : bool(raw, "enabled", false);
        optional = raw.get("optional") == null ? null : bool(raw, "optional", false);
        internodeEncryption = server ? internode(raw.get("internode_encryption")) : InternodeEncryption.NONE;
        keystore = string(raw, "keystore");
        keystorePassword = string(raw, "keystore_password");
        outboundKeystore = string(raw, "outbound_keystore");
        outboundKeystorePassword = string(raw, "outbound_keystore_password");
        truststore = string(raw, "truststore");
        truststorePassword = string(raw, "truststore_password");
        cipherSuites = list(raw, "cipher_suites");
        protocol = string(raw, "protocol");
        acceptedProtocols = list(raw, "accepted_protocols");
        algorithm = string(raw, "algorithm");
        String type = string(raw, "store_type");
        storeType = type == null ? null : type.toUpperCase(Locale.ROOT);
        if (storeType != null && !Set.of("JKS", "PKCS12", "PEM").contains(storeType)) {
            throw new ConfigurationException(name + ".store_type=" + type + " is not supported; use JKS, PKCS12 or PEM");
        }
        requireClientAuth = bool(raw, "require_client_auth", false);
        requireEndpointVerification = bool(raw, "require_endpoint_verification", false);
        if (requireEndpointVerification && !server) {
            throw new ConfigurationException(name + ".require_endpoint_verification=true has no effect here: a node checks"
                    + " the host names of the peers it connects to (server_encryption_options), not of its clients");
        }
        if (name.equals("jmx_encryption_options") && Boolean.TRUE.equals(optional)) {
            throw new ConfigurationException(name + ".optional=true is not supported: JMX is either TLS or plain text");
        }
        Map<String, String> params = new LinkedHashMap<>();
        Object f = raw.get("ssl_context_factory");
        if (f == null) {
            factory = "PEM".equals(storeType) ? PEM_FACTORY : DEFAULT_FACTORY;
        } else if (f instanceof Map<?, ?> m) {
            Object cls = m.get("class_name");
            if (cls == null) {
                throw new ConfigurationException(name + ".ssl_context_factory needs class_name");
            }
            factory = qualify(cls.toString().trim());
            for (Object k : m.keySet()) {
                if (!Set.of("class_name", "parameters").contains(String.valueOf(k))) {
                    throw new ConfigurationException("unsupported option " + name + ".ssl_context_factory." + k);
                }
            }
            Object p = m.get("parameters");
            if (p instanceof Map<?, ?> pm) {
                for (Map.Entry<?, ?> e : pm.entrySet()) {
                    String key = String.valueOf(e.getKey());
                    if (!PEM_PARAMETERS.contains(key)) {
                        throw new ConfigurationException("unsupported parameter " + name + ".ssl_context_factory.parameters."
                                + key + "; supported: " + new TreeSet<>(PEM_PARAMETERS));
                    }
                    if (e.getValue() != null) {
                        params.put(key, e.getValue().toString());
                    }
                }
            } else if (p != null) {
                throw new ConfigurationException(name + ".ssl_context_factory.parameters must be a mapping");
            }
        } else {
            throw new ConfigurationException(name + ".ssl_context_factory must be {class_name: ..., parameters: {...}}");
        }
        if (!factory.equals(DEFAULT_FACTORY) && !factory.equals(PEM_FACTORY)) {
            throw new ConfigurationException(name + ".ssl_context_factory class_name=" + factory + " is not supported;"
                    + " use " + DEFAULT_FACTORY + " (JKS/PKCS12) or " + PEM_FACTORY);
        }
        if (factory.equals(DEFAULT_FACTORY) && !params.isEmpty()) {
            throw new ConfigurationException(name + ".ssl_context_factory.parameters " + params.keySet()
                    + " need class_name " + PEM_FACTORY);
        }
        pemParameters = Map.copyOf(params);
    }

    /** The options under {@code name} ({@code client_encryption_options}); {@code raw} null = absent = disabled. */
    public static EncryptionOptions parse(String name, Object raw, boolean server) {
        if (raw == null) {
            return new EncryptionOptions(name, Map.of(), server);
        }
        if (raw instanceof String text && text.trim().startsWith("{")) {
            raw = NodeConfigLoader.parseYaml(text, name); // an override written as a YAML flow mapping
        }
        if (!(raw instanceof Map<?, ?> map)) {
            throw new IllegalArgumentException("expected a mapping of encryption options, found "
                    + NodeConfigLoader.typeName(raw));
        }
        return new EncryptionOptions(name, map, server);
    }

    public static EncryptionOptions disabledClient() {
        return parse("client_encryption_options", null, false);
    }

    public static EncryptionOptions disabledServer() {
        return parse("server_encryption_options", null, true);
    }

    /** The YAML key these options were read under. */
    public String name() { return name; }

    /** A listening socket's policy (client: {@code enabled}/{@code optional}; server: inbound side). */
    public Policy policy() {
        boolean on = internodeEncryption != InternodeEncryption.NONE || Boolean.TRUE.equals(enabled);
        boolean opt;
        if (optional != null) {
            opt = optional;
        } else if (hasKeystore()) {
            opt = !on;
        } else {
            opt = false;
        }
        if (opt) {
            return Policy.OPTIONAL;
        }
        return on ? Policy.ENCRYPTED : Policy.UNENCRYPTED;
    }

    /** True when a key is configured: a keystore file that exists, or an inline PEM key. */
    public boolean hasKeystore() {
        if (pemParameters.containsKey("private_key")) {
            return true;
        }
        return keystore != null && Files.isRegularFile(Path.of(keystore));
    }

    /** {@code enabled: true} was set (JMX's switch). */
    public boolean enabled() { return Boolean.TRUE.equals(enabled); }
    public InternodeEncryption internodeEncryption() { return internodeEncryption; }
    public String keystore() { return keystore; }
    public String keystorePassword() { return keystorePassword; }
    public String outboundKeystore() { return outboundKeystore; }
    public String outboundKeystorePassword() { return outboundKeystorePassword; }
    public String truststore() { return truststore; }
    public String truststorePassword() { return truststorePassword; }
    public List<String> cipherSuites() { return cipherSuites; }
    public String protocol() { return protocol; }
    public List<String> acceptedProtocols() { return acceptedProtocols; }
    public String algorithm() { return algorithm; }
    /** JKS, PKCS12, PEM, or null (JKS; PEM with the PEM factory). */
    public String storeType() { return storeType; }
    public boolean requireClientAuth() { return requireClientAuth; }
    public boolean requireEndpointVerification() { return requireEndpointVerification; }
    public boolean pem() { return factory.equals(PEM_FACTORY); }
    /** Inline PEM parameters of the PEM factory. */
    public Map<String, String> pemParameters() { return pemParameters; }

    /**
     * The TLS protocol versions to enable: {@code accepted_protocols} when given, else {@code protocol} when it names
     * a version, else null (the JDK's defaults, TLSv1.3 and TLSv1.2) for {@code TLS}.
     */
    public List<String> enabledProtocols() {
        if (!acceptedProtocols.isEmpty()) {
            return acceptedProtocols;
        }
        if (protocol == null || protocol.equalsIgnoreCase("TLS")) {
            return null;
        }
        return List.of(protocol);
    }

    /**
     * The settings as a YAML flow mapping ({@code {}} when nothing is set), for the startup log and
     * {@link NodeConfig#asMap()}: passwords and inline PEM keys are left out.
     */
    public String describe() {
        List<String> parts = new ArrayList<>();
        if (enabled != null) {
            parts.add("enabled: " + enabled);
        }
        if (optional != null) {
            parts.add("optional: " + optional);
        }
        if (internodeEncryption != InternodeEncryption.NONE) {
            parts.add("internode_encryption: " + internodeEncryption.name().toLowerCase(Locale.ROOT));
        }
        quoted(parts, "keystore", keystore);
        quoted(parts, "outbound_keystore", outboundKeystore);
        quoted(parts, "truststore", truststore);
        quoted(parts, "store_type", storeType);
        quoted(parts, "protocol", protocol);
        if (!acceptedProtocols.isEmpty()) {
            parts.add("accepted_protocols: [" + String.join(", ", acceptedProtocols) + "]");
        }
        if (!cipherSuites.isEmpty()) {
            parts.add("cipher_suites: [" + String.join(", ", cipherSuites) + "]");
        }
        quoted(parts, "algorithm", algorithm);
        if (requireClientAuth) {
            parts.add("require_client_auth: true");
        }
        if (requireEndpointVerification) {
            parts.add("require_endpoint_verification: true");
        }
        if (pem()) {
            parts.add("ssl_context_factory: {class_name: " + PEM_FACTORY + "}");
        }
        return "{" + String.join(", ", parts) + "}";
    }

    private static void quoted(List<String> parts, String key, String value) {
        if (value != null) {
            parts.add(key + ": '" + value.replace("'", "''") + "'");
        }
    }

    @Override
    public String toString() {
        return describe();
    }

    private static Set<String> union(Set<String> a, Set<String> b) {
        Set<String> s = new TreeSet<>(a);
        s.addAll(b);
        return s;
    }

    private static String qualify(String cls) {
        return cls.contains(".") ? cls : "org.apache.cassandra.security." + cls;
    }

    private InternodeEncryption internode(Object raw) {
        if (raw == null) {
            return InternodeEncryption.NONE;
        }
        try {
            return InternodeEncryption.valueOf(raw.toString().trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new ConfigurationException(name + ".internode_encryption=" + raw + " is not one of none, all, dc, rack");
        }
    }

    private String string(Map<?, ?> raw, String key) {
        Object v = raw.get(key);
        if (v == null) {
            return null;
        }
        if (v instanceof Map || v instanceof List) {
            throw new ConfigurationException(name + "." + key + " expects a single value");
        }
        String s = v.toString();
        return s.isBlank() ? null : s;
    }

    private List<String> list(Map<?, ?> raw, String key) {
        Object v = raw.get(key);
        if (v == null) {
            return List.of();
        }
        if (v instanceof List<?> l) {
            return l.stream().map(String::valueOf).map(String::trim).filter(s -> !s.isEmpty()).toList();
        }
        if (v instanceof Map) {
            throw new ConfigurationException(name + "." + key + " expects a list");
        }
        return java.util.Arrays.stream(v.toString().split(",")).map(String::trim).filter(s -> !s.isEmpty()).toList();
    }

    private boolean bool(Map<?, ?> raw, String key, boolean dflt) {
        Object v = raw.get(key);
        if (v == null) {
            return dflt;
        }
        try {
            return ConfigKeys.bool(v);
        } catch (IllegalArgumentException e) {
            throw new ConfigurationException(name + "." + key + ": " + e.getMessage());
        }
    }
}
