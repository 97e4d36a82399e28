package io.charybdis.stress.settings;

import java.util.List;

/** {@code -transport}: TLS to the native port, enabled when a truststore is given. */
public record TransportSettings(String truststore, String truststorePassword, String keystore,
                                String keystorePassword, String protocol, String algorithm, List<String> ciphers) {

    public boolean ssl() {
        return truststore != null;
    }

    static TransportSettings parse(List<String> items) {
        Params p = new Params("-transport", items == null ? List.of() : items);
        String ts = p.value("truststore=");
        String tsp = p.value("truststore-password=");
        String ks = p.value("keystore=");
        String ksp = p.value("keystore-password=");
        String proto = p.value("ssl-protocol=");
        String alg = p.value("ssl-alg=");
        String ciphers = p.value("ssl-ciphers=");
        p.finish();
        return new TransportSettings(ts, tsp, ks, ksp, proto == null ? "TLS" : proto, alg,
                List.of((ciphers == null ? "TLS_RSA_WITH_AES_128_CBC_SHA,TLS_RSA_WITH_AES_256_CBC_SHA" : ciphers).split(",")));
    }
}
