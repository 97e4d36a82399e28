"""Test certificates made at test time (never committed): a CA, a node certificate for 127.0.0.1 signed by it, a
client certificate signed by it, and a client certificate of another CA. Written as PEM files in the form Cassandra's
PEMBasedSslContextFactory reads: `<name>.pem` holds the PKCS#8 key followed by its certificate chain."""

import datetime
import ipaddress
from pathlib import Path

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID


def _name(cn):
    return x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, cn)])


def _cert(subject_key, subject, issuer_key, issuer, ca=False, san=None):
    now = datetime.datetime.now(datetime.timezone.utc)
    b = (x509.CertificateBuilder().subject_name(subject).issuer_name(issuer).public_key(subject_key.public_key())
         .serial_number(x509.random_serial_number()).not_valid_before(now - datetime.timedelta(hours=1))
         .not_valid_after(now + datetime.timedelta(days=2))
         .add_extension(x509.BasicConstraints(ca=ca, path_length=None), critical=True))
    if san:
        b = b.add_extension(x509.SubjectAlternativeName(san), critical=False)
    return b.sign(issuer_key, hashes.SHA256())


def _pem_key(key):
    return key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                             serialization.NoEncryption())


def _pem_cert(cert):
    return cert.public_bytes(serialization.Encoding.PEM)


class Certificates:
    """Files under `directory`: ca.pem; node.pem, client.pem, rogue-client.pem (key + chain); the same with the key
    encrypted by KEY_PASSWORD as <name>-encrypted.pem; and for Python's ssl module <name>.key.pem / <name>.crt.pem."""

    KEY_PASSWORD = "pem-key-secret"

    def __init__(self, directory):
        self.dir = Path(directory)
        self.dir.mkdir(parents=True, exist_ok=True)
        ca_key = ec.generate_private_key(ec.SECP256R1())
        ca = _cert(ca_key, _name("Charybdis Test CA"), ca_key, _name("Charybdis Test CA"), ca=True)
        rogue_key = ec.generate_private_key(ec.SECP256R1())
        rogue = _cert(rogue_key, _name("Rogue CA"), rogue_key, _name("Rogue CA"), ca=True)
        (self.dir / "ca.pem").write_bytes(_pem_cert(ca))
        self._leaf("node", ca_key, ca, [x509.IPAddress(ipaddress.ip_address("127.0.0.1")), x509.DNSName("localhost")])
        self._leaf("client", ca_key, ca, None)
        self._leaf("rogue-client", rogue_key, rogue, None)

    def _leaf(self, name, ca_key, ca, san):
        key = ec.generate_private_key(ec.SECP256R1())
        cert = _cert(key, _name(f"charybdis-{name}"), ca_key, ca.subject, san=san)
        chain = _pem_cert(cert) + _pem_cert(ca)
        (self.dir / f"{name}.pem").write_bytes(_pem_key(key) + chain)
        (self.dir / f"{name}.key.pem").write_bytes(_pem_key(key))
        (self.dir / f"{name}.crt.pem").write_bytes(chain)
        encrypted = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                      serialization.BestAvailableEncryption(self.KEY_PASSWORD.encode()))
        (self.dir / f"{name}-encrypted.pem").write_bytes(encrypted + chain)  # PBES2, as openssl pkcs8 -topk8 writes

    def path(self, name):
        return str(self.dir / name)


def encryption_options(certs, **extra):
    """A -Dcharybdis.client_encryption_options=... override (a YAML flow mapping) serving PEM files."""
    options = {
        "enabled": "true",
        "ssl_context_factory": "{class_name: org.apache.cassandra.security.PEMBasedSslContextFactory}",
        "keystore": f"'{certs.path('node.pem')}'",
        "truststore": f"'{certs.path('ca.pem')}'",
    }
    options.update({k: str(v).lower() if isinstance(v, bool) else v for k, v in extra.items()})
    return "-Dcharybdis.client_encryption_options={" + ", ".join(f"{k}: {v}" for k, v in options.items()) + "}"
