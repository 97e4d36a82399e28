package io.charybdis.cluster.metadata;

import javax.net.ssl.KeyManager;
import javax.net.ssl.TrustManager;

/**
 * TLS of the metadata log's traffic ({@code metadata_port}) when internode traffic is encrypted: this node's key and
 * the trust that checks its peers; {@code mutual}: peers must present certificates too ({@code require_client_auth}).
 * Ratis 3.1.3's Netty transport has no TLS, so with this the log runs over Ratis' gRPC transport, which has; gRPC
 * checks that a peer's certificate names the address it was reached at (an IP subject alternative name).
 */
public record MetadataTls(KeyManager keyManager, TrustManager trustManager, boolean mutual) {
}
