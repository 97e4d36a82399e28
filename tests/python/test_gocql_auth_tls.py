"""gocql (tests/go/auth-tls) against a node started by bin/charybdis with PasswordAuthenticator and TLS: a round trip
with the server certificate verified against the CA, one with a client certificate the node requires, and the
refusals: a plain-text gocql client on a TLS-only port, a TLS client without the required certificate, a wrong
password. Skipped where Go is not installed. Certificates are made at test time."""

import os
import shutil
import subprocess

import pytest

from conftest import REPO
from test_tls import TlsNode
from tls_certs import Certificates, encryption_options

PROGRAM = REPO / "tests" / "go" / "auth-tls"
PASSWORD_AUTH = "-Dcharybdis.authenticator=PasswordAuthenticator"


@pytest.fixture(scope="module")
def gocql_client(tmp_path_factory):
    go = shutil.which("go") or ("/usr/local/go/bin/go" if os.path.exists("/usr/local/go/bin/go") else None)
    if go is None:
        pytest.skip("go is not installed: the gocql tests need a Go toolchain")
    binary = tmp_path_factory.mktemp("gocql") / "auth-tls"
    result = subprocess.run([go, "build", "-mod=mod", "-o", str(binary), "."], cwd=PROGRAM, capture_output=True,
                            text=True, timeout=900)
    assert result.returncode == 0, f"go build failed:\n{result.stdout}\n{result.stderr}"
    return binary


@pytest.fixture(scope="module")
def certs(tmp_path_factory):
    return Certificates(tmp_path_factory.mktemp("certs"))


def run(client, node, *args, user="cassandra", password="cassandra"):
    command = [str(client), "-host", node.host, "-port", str(node.port), "-user", user, "-password", password,
               *args]
    result = subprocess.run(command, capture_output=True, text=True, timeout=120)
    return result.returncode, result.stdout + result.stderr


def test_gocql_with_password_and_tls(node_factory, tmp_path, certs, gocql_client):
    node = TlsNode(tmp_path / "tls", certs, extra_args=[encryption_options(certs), PASSWORD_AUTH])
    node_factory.made.append(node)
    node.start()

    code, out = run(gocql_client, node, "-ca", certs.path("ca.pem"))
    assert code == 0 and "round trip: ok" in out, out

    code, out = run(gocql_client, node, "-ca", certs.path("ca.pem"), "-password", "wrong", "-expect-refused")
    assert code == 0 and "refused as expected" in out, out
    code, out = run(gocql_client, node, "-expect-refused")  # plain text on a port that requires TLS
    assert code == 0 and "refused as expected" in out, out
    # the node's certificate is not signed by the CA the client trusts
    code, out = run(gocql_client, node, "-ca", certs.path("rogue-client.crt.pem"), "-expect-refused")
    assert code == 0 and "refused as expected" in out, out
    assert node.running()


def test_gocql_with_a_required_client_certificate(node_factory, tmp_path, certs, gocql_client):
    node = TlsNode(tmp_path / "mtls", certs,
                   extra_args=[encryption_options(certs, require_client_auth=True), PASSWORD_AUTH])
    node_factory.made.append(node)
    node.start()

    code, out = run(gocql_client, node, "-ca", certs.path("ca.pem"), "-cert", certs.path("client.crt.pem"),
                    "-key", certs.path("client.key.pem"), "-keyspace", "gocql_mtls")
    assert code == 0 and "round trip: ok" in out, out

    code, out = run(gocql_client, node, "-ca", certs.path("ca.pem"), "-expect-refused")  # no client certificate
    assert code == 0 and "refused as expected" in out, out
    code, out = run(gocql_client, node, "-ca", certs.path("ca.pem"), "-cert", certs.path("rogue-client.crt.pem"),
                    "-key", certs.path("rogue-client.key.pem"), "-expect-refused")  # a certificate of another CA
    assert code == 0 and "refused as expected" in out, out
    code, out = run(gocql_client, node, "-expect-refused")
    assert code == 0 and "refused as expected" in out, out
    assert node.running()
