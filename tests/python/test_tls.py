"""client_encryption_options with the Python driver against a node started by bin/charybdis: TLS with the server
certificate checked (CA and host name), a client certificate required, plain-text and untrusted clients refused;
optional TLS serving both on one port, with PasswordAuthenticator. Certificates are made at test time."""

import ssl

import pytest
from cassandra.auth import PlainTextAuthProvider
from cassandra.cluster import Cluster, NoHostAvailable

from conftest import NodeProcess, cql_answers, unique_name
from tls_certs import Certificates, encryption_options


class TlsNode(NodeProcess):
    """A node whose readiness is checked through TLS (with a client certificate, in case one is required)."""

    def __init__(self, workdir, certs, extra_args=()):
        super().__init__(workdir, extra_args=extra_args)
        self.certs = certs

    def ready(self):
        ctx = client_context(self.certs, "client")
        return cql_answers(self.host, self.port, timeout=2.0,
                           wrap=lambda s: ctx.wrap_socket(s, server_hostname=self.host))


def client_context(certs, client_key=None, trust="ca.pem"):
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)  # verifies the certificate and the host name
    ctx.load_verify_locations(certs.path(trust))
    if client_key:
        ctx.load_cert_chain(certs.path(f"{client_key}.crt.pem"), certs.path(f"{client_key}.key.pem"))
    return ctx


def connect(node, ctx=None, auth=False):
    kwargs = {}
    if ctx is not None:
        kwargs["ssl_context"] = ctx
        kwargs["ssl_options"] = {"server_hostname": node.host}
    if auth:
        kwargs["auth_provider"] = PlainTextAuthProvider("cassandra", "cassandra")
    cluster = Cluster(contact_points=[node.host], port=node.port, connect_timeout=10,
                      control_connection_timeout=10, protocol_version=4, **kwargs)
    try:
        return cluster, cluster.connect()
    except Exception:
        cluster.shutdown()
        raise


@pytest.fixture(scope="module")
def certs(tmp_path_factory):
    return Certificates(tmp_path_factory.mktemp("certs"))


def test_required_tls_with_client_certificates(node_factory, tmp_path, certs):
    node = TlsNode(tmp_path / "tls", certs, extra_args=[encryption_options(certs, require_client_auth=True)])
    node_factory.made.append(node)
    node.start()

    cluster, session = connect(node, client_context(certs, "client"))
    try:
        ks = unique_name("tls")
        session.execute(f"CREATE KEYSPACE {ks} WITH replication = {{'class': 'SimpleStrategy', "
                        f"'replication_factor': 1}}")
        session.execute(f"CREATE TABLE {ks}.t (k int PRIMARY KEY, v text)")
        session.execute(f"INSERT INTO {ks}.t (k, v) VALUES (1, 'encrypted')")
        assert session.execute(f"SELECT v FROM {ks}.t WHERE k = 1").one().v == "encrypted"
    finally:
        cluster.shutdown()

    assert not cql_answers(node.host, node.port), "a plain-text client was answered on a TLS-only port"
    with pytest.raises(NoHostAvailable):
        connect(node)  # plain text
    with pytest.raises(NoHostAvailable):
        connect(node, client_context(certs))  # no client certificate
    with pytest.raises(NoHostAvailable):
        connect(node, client_context(certs, "rogue-client"))  # a certificate of an untrusted CA
    with pytest.raises(NoHostAvailable):
        connect(node, client_context(certs, "client", trust="rogue-client.crt.pem"))  # the server is not trusted
    assert node.running()


def test_optional_tls_serves_both_with_password_authentication(node_factory, tmp_path, certs):
    # the node's key as an encrypted PKCS#8 PEM (PBES2/AES-256, as openssl writes it), opened with keystore_password
    node = node_factory("optional", extra_args=[
        encryption_options(certs, optional=True, keystore=f"'{certs.path('node-encrypted.pem')}'",
                           keystore_password=Certificates.KEY_PASSWORD),
        "-Dcharybdis.authenticator=PasswordAuthenticator"])
    node.start()
    tls_cluster, tls = connect(node, client_context(certs), auth=True)
    plain_cluster, plain = connect(node, auth=True)
    try:
        assert tls.execute("SELECT release_version FROM system.local").one() == \
            plain.execute("SELECT release_version FROM system.local").one()
    finally:
        tls_cluster.shutdown()
        plain_cluster.shutdown()
    with pytest.raises(NoHostAvailable):
        connect(node, client_context(certs))  # TLS without credentials: PasswordAuthenticator still applies
