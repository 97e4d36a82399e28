"""Apache Cassandra's own nodetool (org.apache.cassandra.tools.NodeTool 5.0.6) against a Charybdis node over JMX.

nodetool runs through the reference launcher in ../shared/tools/cassandra-reference/nodetool.sh (next to the
repository), which resolves cassandra-all 5.0.6 and its dependencies with Maven once into its work directory and
runs NodeTool on a JDK 17 (or 11). The test is skipped only when that launcher or such a JDK is missing.
"""

import os
import re
import shutil
import socket
import subprocess
import time
from pathlib import Path

import pytest

from conftest import REPO, connect

REFERENCE = REPO.parent / "shared" / "tools" / "cassandra-reference"
NODETOOL = REFERENCE / "nodetool.sh"
# The first call may resolve ~100 jars from Maven Central.
FIRST_CALL_TIMEOUT_S = 900
CALL_TIMEOUT_S = 180


def _java_major(java):
    try:
        out = subprocess.run([java, "-XshowSettings:properties", "-version"], capture_output=True, text=True,
                             timeout=60).stderr
    except (OSError, subprocess.TimeoutExpired):
        return None
    m = re.search(r"java\.specification\.version = (\d+)", out)
    return int(m.group(1)) if m else None


def _find_nodetool_jdk():
    """A JDK that Cassandra 5.0's tools run on (17, else 11): JAVA17_HOME, JAVA_HOME, java on PATH, /usr/lib/jvm."""
    candidates = []
    for var in ("CASSANDRA_JAVA_HOME", "JAVA17_HOME", "JAVA_HOME"):
        if os.environ.get(var):
            candidates.append(Path(os.environ[var]))
    on_path = shutil.which("java")
    if on_path:
        candidates.append(Path(os.path.realpath(on_path)).parent.parent)
    for root in (Path("/usr/lib/jvm"), Path("/opt/java"), Path("/Library/Java/JavaVirtualMachines")):
        if root.is_dir():
            candidates.extend(sorted(root.iterdir()))
    found = {}
    for home in candidates:
        for java in (home / "bin" / "java", home / "Contents" / "Home" / "bin" / "java"):
            if java.is_file() and os.access(java, os.X_OK):
                major = _java_major(str(java))
                if major in (17, 11):
                    found.setdefault(major, java.parent.parent)
    return found.get(17) or found.get(11)


@pytest.fixture(scope="module")
def nodetool_env(tmp_path_factory):
    if not NODETOOL.is_file():
        pytest.skip(f"the reference nodetool launcher is absent ({NODETOOL})")
    jdk = _find_nodetool_jdk()
    if jdk is None:
        pytest.skip("no JDK 17 (or 11) found to run Apache Cassandra's nodetool (set JAVA17_HOME)")
    env = dict(os.environ)
    env["JAVA_HOME"] = str(jdk)
    env["PATH"] = f"{jdk}/bin:{env.get('PATH', '')}"
    if shutil.which("mvn", path=env["PATH"]) is None:
        # the launcher resolves the jars with `mvn`: use the project's Maven wrapper where there is no Maven
        shim = tmp_path_factory.mktemp("mvn-shim")
        (shim / "mvn").write_text(f'#!/bin/sh\nexec "{REPO / "mvnw"}" "$@"\n')
        (shim / "mvn").chmod(0o755)
        env["PATH"] = f"{shim}:{env['PATH']}"
    return env


class Nodetool:
    def __init__(self, env, node):
        self.env = env
        self.node = node
        self.calls = 0

    def __call__(self, *args, check=True):
        timeout = FIRST_CALL_TIMEOUT_S if self.calls == 0 else CALL_TIMEOUT_S
        self.calls += 1
        cmd = [str(NODETOOL), "-h", self.node.host, "-p", str(self.node.jmx_port), *args]
        r = subprocess.run(cmd, env=self.env, stdin=subprocess.DEVNULL, capture_output=True, text=True,
                           timeout=timeout)
        if check and r.returncode != 0:
            pytest.fail(f"nodetool {' '.join(args)} exited with {r.returncode}:\n{r.stdout}\n{r.stderr}")
        return r.stdout


def _wait_for_port(host, port, timeout=60):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            with socket.create_connection((host, port), timeout=2):
                return
        except OSError:
            time.sleep(0.2)
    pytest.fail(f"JMX port {host}:{port} did not open within {timeout}s")


def _line(output, label):
    """The value of 'label : value' in nodetool's output."""
    m = re.search(rf"^\s*{re.escape(label)}\s*:\s*(.*?)\s*$", output, re.M)
    assert m, f"no '{label}' in:\n{output}"
    return m.group(1)


def test_nodetool_against_a_node(nodetool_env, node_factory):
    node = node_factory("nodetool").start()
    _wait_for_port(node.host, node.jmx_port)
    nodetool = Nodetool(nodetool_env, node)

    assert _line(nodetool("version"), "ReleaseVersion") == "5.0.6"

    with connect(node) as session:
        host_id = str(session.execute("SELECT host_id FROM system.local").one().host_id)
        session.execute("CREATE KEYSPACE nt WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}")
        session.execute("CREATE TABLE nt.t (k int PRIMARY KEY, v text)")
        insert = session.prepare("INSERT INTO nt.t (k, v) VALUES (?, ?)")
        for i in range(300):
            session.execute(insert, (i, f"value {i}"))
        nodetool("flush", "nt", "t")
        for i in range(300, 400):
            session.execute(insert, (i, f"value {i}"))
        select = session.prepare("SELECT v FROM nt.t WHERE k = ?")
        for i in range(50):
            assert session.execute(select, (i,)).one().v == f"value {i}"
    nodetool("flush", "nt")  # the whole keyspace

    # status: one Up/Normal node, our address, a non-zero load, 100% effective ownership, host id, rack
    status = nodetool("status", "nt")
    assert "Datacenter: datacenter1" in status
    un = [l for l in status.splitlines() if l.startswith("UN")]
    assert len(un) == 1, status
    m = re.match(r"UN\s+(\S+)\s+([\d.]+ (?:bytes|KiB|MiB))\s+(\d+)\s+([\d.]+%)\s+(\S+)\s+(\S+)", un[0])
    assert m, un[0]
    assert m.group(1) == node.host
    assert m.group(2) != "0 bytes"
    assert m.group(3) == "16" and m.group(4) == "100.0%"
    assert m.group(5) == host_id and m.group(6) == "rack1"

    info = nodetool("info")
    assert _line(info, "ID") == host_id
    assert _line(info, "Load") == m.group(2)
    assert _line(info, "Data Center") == "datacenter1"
    assert _line(info, "Rack") == "rack1"
    assert _line(info, "Native Transport active") == "true"
    assert "16 tokens" in _line(info, "Token")

    stats = nodetool("tablestats", "nt.t")
    assert _line(stats, "Table") == "t"
    assert int(_line(stats, "SSTable count")) >= 2  # two flushes (per shard that got data)
    assert int(_line(stats, "Space used (live)")) > 0
    assert int(_line(stats, "Local write count")) == 400
    assert int(_line(stats, "Local read count")) == 50
    assert float(_line(stats, "Local read latency").split()[0]) > 0
    assert int(_line(stats, "Number of partitions (estimate)")) >= 400
    # each of the 50 reads went through one live row and no tombstone
    assert float(_line(stats, "Average live cells per slice (last five minutes)")) == 1.0
    assert int(_line(stats, "Maximum live cells per slice (last five minutes)")) == 1
    assert float(_line(stats, "Average tombstones per slice (last five minutes)")) == 0.0

    hist = nodetool("tablehistograms", "nt.t")
    assert "nt/t histograms" in hist
    assert re.search(r"^Max\s+[\d.]+\s+[\d.]+\s+[\d.]+", hist, re.M), hist

    compaction = nodetool("compactionstats")
    assert re.search(r"^pending tasks\s+\d+", compaction, re.M), compaction
    assert re.search(r"^concurrent compactors\s+2", compaction, re.M), compaction

    nodetool("compact", "nt", "t")
    after = nodetool("tablestats", "nt.t")
    assert int(_line(after, "SSTable count")) <= 2  # one per shard at most
    completed = re.search(r"^compactions completed\s+(\d+)", nodetool("compactionstats"), re.M)
    assert completed and int(completed.group(1)) >= 1
    nodetool("stop", "COMPACTION")

    cluster = nodetool("describecluster")
    assert _line(cluster, "Name") == "Test Cluster"
    assert _line(cluster, "Partitioner") == "org.apache.cassandra.dht.Murmur3Partitioner"
    assert f"5.0.6: [{node.host}:{node.storage_port}]" in cluster
    assert "nt -> Replication class: SimpleStrategy {replication_factor=1}" in cluster
    assert re.search(r"Live: 1\b", cluster) and re.search(r"Unreachable: 0\b", cluster)

    assert "Current timeout for type read: 5000 ms" in nodetool("gettimeout", "read")
    ring = nodetool("ring")
    assert len([l for l in ring.splitlines() if l.startswith(node.host)]) == 16


def test_nodetool_over_tls_with_a_password_file(nodetool_env, node_factory, tmp_path):
    """JMX with jmx_password_file and jmx_encryption_options: nodetool with -u/-pw over TLS (what its --ssl sets up:
    -Dssl.enable=true and a truststore) reads the node; without credentials or without TLS it is refused."""
    from tls_certs import Certificates
    certs = Certificates(tmp_path / "certs")
    passwords = tmp_path / "jmxremote.password"
    passwords.write_text("operator s3cret-pw\n")
    trust = tmp_path / "truststore.p12"
    keytool = Path(nodetool_env["JAVA_HOME"]) / "bin" / "keytool"
    subprocess.run([str(keytool), "-importcert", "-noprompt", "-alias", "ca", "-file", certs.path("ca.pem"),
                    "-keystore", str(trust), "-storetype", "PKCS12", "-storepass", "trust-pw"],
                   check=True, capture_output=True, timeout=60)
    node = node_factory("nodetool-tls", extra_args=[
        f"-Dcharybdis.jmx_password_file={passwords}",
        "-Dcharybdis.jmx_encryption_options={enabled: true, ssl_context_factory: {class_name: "
        f"org.apache.cassandra.security.PEMBasedSslContextFactory}}, keystore: '{certs.path('node.pem')}'}}",
    ]).start()
    _wait_for_port(node.host, node.jmx_port)

    tls_env = dict(nodetool_env)
    tls_env["JAVA_TOOL_OPTIONS"] = (f"-Dssl.enable=true -Djavax.net.ssl.trustStore={trust} "
                                    "-Djavax.net.ssl.trustStorePassword=trust-pw -Djavax.net.ssl.trustStoreType=PKCS12")
    nodetool = Nodetool(tls_env, node)
    assert _line(nodetool("-u", "operator", "-pw", "s3cret-pw", "version"), "ReleaseVersion") == "5.0.6"
    assert "Test Cluster" in nodetool("-u", "operator", "-pw", "s3cret-pw", "describecluster")
    r = subprocess.run([str(NODETOOL), "-h", node.host, "-p", str(node.jmx_port), "-u", "operator", "-pw", "guess",
                        "version"], env=tls_env, capture_output=True, text=True, timeout=CALL_TIMEOUT_S)
    assert r.returncode != 0 and "5.0.6" not in r.stdout, r.stdout
    r = subprocess.run([str(NODETOOL), "-h", node.host, "-p", str(node.jmx_port), "-u", "operator", "-pw",
                        "s3cret-pw", "version"], env=nodetool_env, capture_output=True, text=True,
                       timeout=CALL_TIMEOUT_S)  # no TLS
    assert r.returncode != 0 and "5.0.6" not in r.stdout, r.stdout
