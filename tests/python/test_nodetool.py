"""Apache Cassandra's own nodetool (org.apache.cassandra.tools.NodeTool 5.0.6) against a Charybdis node over JMX.

nodetool runs through the reference launcher in ../shared/tools/cassandra-reference/nodetool.sh (next to the
repository), which resolves cassandra-all 5.0.6 and its dependencies with Maven once into its work directory and
runs NodeTool on a JDK 17 (or 11). The test is skipped only when that launcher or such a JDK is missing.
"""

import json
import os
import re
import secrets
import shutil
import socket
import subprocess
import time
from pathlib import Path

import pytest

from conftest import REPO, connect, cql_answers

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
    # partition sizes and cells per partition from the SSTables' statistics: 400 partitions (k int, v 'value N')
    # of about a hundred bytes and one cell each
    assert "No SSTables exists" not in hist, hist
    sizes, cells = _size_and_cell_columns(hist)
    assert all(50 < sizes[p] < 200 for p in ("50%", "75%", "95%", "98%", "99%", "Max")), hist
    assert sizes["Min"] <= sizes["50%"] <= sizes["99%"] <= sizes["Max"], hist
    assert cells == {"50%": 1, "75%": 1, "95%": 1, "98%": 1, "99%": 1, "Min": 0, "Max": 1}, hist
    # tablestats' partition sizes come from the same histograms (taken SSTable by SSTable, as Cassandra does)
    assert int(_line(stats, "Compacted partition minimum bytes")) == sizes["Min"]
    assert int(_line(stats, "Compacted partition maximum bytes")) == sizes["Max"]
    assert sizes["Min"] <= int(_line(stats, "Compacted partition mean bytes")) <= sizes["Max"]

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


def _size_and_cell_columns(hist):
    """tablehistograms' Partition Size and Cell Count columns: {row label: value} each; a NaN fails."""
    sizes, cells = {}, {}
    for label in ("50%", "75%", "95%", "98%", "99%", "Min", "Max"):
        m = re.search(rf"^{re.escape(label)}\s+\S+\s+\S+\s+\S+\s+(\S+)\s+(\S+)$", hist, re.M)
        assert m, f"no {label} row in:\n{hist}"
        assert "NaN" not in (m.group(1), m.group(2)), hist
        sizes[label], cells[label] = int(float(m.group(1))), int(float(m.group(2)))
    return sizes, cells


# tablehistograms' Cell Count column for _write_cells_workload, recorded from Apache Cassandra 5.0.6 (the reference
# node of shared/tools/cassandra-reference, its nodetool, after a flush; 55 partitions in one SSTable)
CELLS_WORKLOAD_REFERENCE = {"50%": 10, "75%": 24, "95%": 35, "98%": 42, "99%": 42, "Min": 0, "Max": 42}


def _write_cells_workload(session):
    """Partitions of 0 to 42 cells: static cells, list and map elements, a collection's deletion (each INSERT of a
    collection), cell tombstones and rows of a primary key only."""
    session.execute("CREATE KEYSPACE cells WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}")
    session.execute("CREATE TABLE cells.u (k int, c int, s text static, l list<int>, m map<int, text>, v int, "
                    "PRIMARY KEY (k, c))")
    for k in range(60):
        if k % 3 == 0:
            session.execute("INSERT INTO cells.u (k, s) VALUES (%s, 'st')", (k,))
        for c in range(k % 7):
            session.execute("INSERT INTO cells.u (k, c, l, m, v) VALUES (%s, %s, %s, %s, %s)",
                            (k, c, list(range(c)), {i: "a" for i in range(k % 4)}, c))
        if k % 5 == 0:
            session.execute("DELETE v FROM cells.u WHERE k = %s AND c = 0", (k,))
        if k % 11 == 0:
            session.execute("INSERT INTO cells.u (k, c) VALUES (%s, 99)", (k,))


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


def _tool_config(tmp_path):
    """A minimal cassandra.yaml: nodetool stopdaemon initializes Cassandra's configuration before it calls the node
    (an installed nodetool finds conf/cassandra.yaml; the reference launcher sets no -Dcassandra.config)."""
    conf = tmp_path / "nodetool-cassandra.yaml"
    conf.write_text("cluster_name: nodetool\npartitioner: org.apache.cassandra.dht.Murmur3Partitioner\n"
                    "endpoint_snitch: SimpleSnitch\ncommitlog_sync: periodic\ncommitlog_sync_period: 10000ms\n"
                    "seed_provider:\n  - class_name: org.apache.cassandra.locator.SimpleSeedProvider\n"
                    "    parameters:\n      - seeds: \"127.0.0.1\"\n")
    return conf


def _sstables(node, keyspace, table):
    data = Path(node.workdir) / "data" / keyspace
    return [p for d in data.glob(f"{table}-*") for p in d.glob("*Data*")] if data.is_dir() else []


def test_nodetool_snapshots_compaction_drain_and_stopdaemon(nodetool_env, node_factory, tmp_path):
    from cassandra.concurrent import execute_concurrent_with_args

    node = node_factory("nodetool-ops").start()
    _wait_for_port(node.host, node.jmx_port)
    nodetool = Nodetool(nodetool_env, node)

    with connect(node) as session:
        session.execute("CREATE KEYSPACE ops WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}")
        # no compaction before nodetool compact asks for one
        session.execute("CREATE TABLE ops.t (k int PRIMARY KEY, v text) WITH compaction = "
                        "{'class': 'SizeTieredCompactionStrategy', 'min_threshold': 32}")
        insert = session.prepare("INSERT INTO ops.t (k, v) VALUES (?, ?)")
        for batch in range(4):  # four flushes: four SSTables per shard that got data
            # values that do not compress away: compaction has megabytes to read and write
            rows = [(i, secrets.token_hex(500)) for i in range(batch * 3000, (batch + 1) * 3000)]
            execute_concurrent_with_args(session, insert, rows, concurrency=64, raise_on_first_error=True)
            before = len(_sstables(node, "ops", "t"))
            nodetool("flush", "ops", "t")
            assert len(_sstables(node, "ops", "t")) > before  # flush wrote SSTables

    # info: the memory budget's parts as Cassandra's fields show them, and the heap
    info = nodetool("info")
    assert re.match(r"[\d.]+ / [\d.]+", _line(info, "Heap Memory (MB)"))
    assert _line(info, "Row Cache").startswith("entries ")
    # the cache's capacity is what memory_budget (256 MiB on the test nodes) leaves beside the memtables
    capacity = re.search(r"capacity ([\d.]+) (MiB|KiB)", _line(info, "Row Cache"))
    assert capacity and capacity.group(2) == "MiB" and 200 < float(capacity.group(1)) <= 256, info

    # compactionstats while a compaction runs: slowed down by a 1 MiB/s cap
    nodetool("setcompactionthroughput", "1")
    started = time.monotonic()
    compact = subprocess.Popen([str(NODETOOL), "-h", node.host, "-p", str(node.jmx_port), "compact", "ops", "t"],
                               env=nodetool.env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True)
    try:
        seen = None
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and seen is None:
            out = nodetool("compactionstats")
            seen = re.search(r"^\S+\s+Major compaction\s+ops\s+t\s+\d+\s+\d+\s+bytes\s+[\d.]+%", out, re.M)
            if compact.poll() is not None:
                break
        assert seen, (f"no running compaction of ops.t in compactionstats ({time.monotonic() - started:.1f}s after "
                      f"nodetool compact started; it exited with {compact.poll()}):\n{out}")
    finally:
        nodetool("setcompactionthroughput", "0")
        _, err = compact.communicate(timeout=180)
    assert compact.returncode == 0, err

    # snapshot / listsnapshots / clearsnapshot
    out = nodetool("snapshot", "-t", "before", "ops")
    assert "Requested creating snapshot(s) for [ops] with snapshot name [before] and options {skipFlush=false}" in out
    assert "Snapshot directory: before" in out
    nodetool("snapshot", "-t", "again", "-kt", "ops.t")
    listed = nodetool("listsnapshots")
    assert "Snapshot name Keyspace name Column family name True size Size on disk Creation time" in listed
    rows = [l.split() for l in listed.splitlines() if l.startswith(("before ", "again "))]
    assert sorted(r[0] for r in rows) == ["again", "before"] and all(r[1:3] == ["ops", "t"] for r in rows), listed
    assert "Total TrueDiskSpaceUsed: 0 bytes" in listed  # hard links of live SSTables
    again = subprocess.run([str(NODETOOL), "-h", node.host, "-p", str(node.jmx_port), "snapshot", "-t", "before", "ops"],
                           env=nodetool.env, stdin=subprocess.DEVNULL, capture_output=True, text=True,
                           timeout=CALL_TIMEOUT_S)
    assert again.returncode == 2 and "error: Snapshot before already exists." in again.stderr, again
    out = nodetool("clearsnapshot", "-t", "before", "ops")
    assert "Requested clearing snapshot(s) for [ops] with snapshot name [before]" in out
    assert [l.split()[0] for l in nodetool("listsnapshots").splitlines() if l.startswith(("before ", "again "))] \
        == ["again"]
    nodetool("clearsnapshot", "--all")
    assert "There are no snapshots" in nodetool("listsnapshots")

    # logging levels, on the node's logback
    nodetool("setlogginglevel", "io.charybdis.node.jmx", "DEBUG")
    levels = nodetool("getlogginglevels")
    assert re.search(r"^ROOT\s+INFO$", levels, re.M) and re.search(r"^io\.charybdis\.node\.jmx\s+DEBUG$", levels, re.M)

    # drain: no more CQL, everything flushed (nothing left to replay), the node still answers nodetool
    nodetool("drain")
    info = nodetool("info")
    assert _line(info, "Native Transport active") == "false"
    assert not cql_answers(node.host, node.port, timeout=2.0)

    # stopdaemon: the process exits cleanly
    env = dict(nodetool.env)
    env["JAVA_TOOL_OPTIONS"] = f"-Dcassandra.config=file://{_tool_config(tmp_path)}"
    r = subprocess.run([str(NODETOOL), "-h", node.host, "-p", str(node.jmx_port), "stopdaemon"], env=env,
                       stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=CALL_TIMEOUT_S)
    assert r.returncode == 0, r.stdout + r.stderr
    assert node.proc.wait(timeout=60) == 0
    log = (Path(node.workdir) / "logs" / "system.log").read_text()
    assert "Stopping at the request of nodetool stopdaemon" in log and "Charybdis stopped cleanly" in log


def test_bin_nodetool_prints_what_apache_nodetool_prints(nodetool_env, node_factory):
    """bin/nodetool (Charybdis's own, picocli over JMX) against Apache Cassandra 5.0.6's nodetool on the same node:
    same stdout and exit status for each command."""
    node = node_factory("nodetool-ours").start()
    _wait_for_port(node.host, node.jmx_port)
    apache = Nodetool(nodetool_env, node)

    def run(tool, *args):
        if tool == "apache":
            cmd = [str(NODETOOL), "-h", node.host, "-p", str(node.jmx_port), *args]
            env, timeout = apache.env, FIRST_CALL_TIMEOUT_S
        else:
            cmd = [str(REPO / "bin" / "nodetool"), "-h", node.host, "-p", str(node.jmx_port), *args]
            env, timeout = None, CALL_TIMEOUT_S
        r = subprocess.run(cmd, env=env, stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=timeout)
        return r.returncode, r.stdout

    def same(*args, state_changing=False):
        a = run("apache", *args)
        o = run("ours", *args)
        assert o == a, f"nodetool {' '.join(args)}:\napache (exit {a[0]}):\n{a[1]}\nours (exit {o[0]}):\n{o[1]}"
        return a

    with connect(node) as session:
        session.execute("CREATE KEYSPACE cmp WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}")
        session.execute("CREATE TABLE cmp.t (k int PRIMARY KEY, v text)")
        for i in range(100):
            session.execute("INSERT INTO cmp.t (k, v) VALUES (%s, %s)", (i, f"v{i}"))
        _write_cells_workload(session)

    assert same("version")[0] == 0
    assert same("status")[0] == 0
    assert same("status", "cmp")[0] == 0
    assert same("flush", "cmp")[0] == 0
    assert same("flush")[0] == 0
    assert same("listsnapshots")[1].endswith("There are no snapshots\n")
    # each tool takes and clears its own snapshot of the same name: the same messages
    for tool in ("apache", "ours"):
        code, out = run(tool, "snapshot", "-t", "s1", "cmp")
        assert code == 0 and out == ("Requested creating snapshot(s) for [cmp] with snapshot name [s1] and options "
                                     "{skipFlush=false}\nSnapshot directory: s1\n"), (tool, out)
        code, out = run(tool, "snapshot", "-t", "s2", "-kt", "cmp.t")
        assert code == 0 and "for [cmp.t] with snapshot name [s2]" in out, (tool, out)
        listing = same("listsnapshots")
        assert "s1 " in listing[1] and "s2 " in listing[1]
        assert run(tool, "snapshot", "-t", "s1", "cmp")[0] == 2  # exists already
        code, out = run(tool, "clearsnapshot", "-t", "s1", "cmp")
        assert code == 0 and out == "Requested clearing snapshot(s) for [cmp] with snapshot name [s1]\n"
        code, out = run(tool, "clearsnapshot", "--all")
        assert code == 0 and out == "Requested clearing snapshot(s) for [all keyspaces] with [all snapshots]\n"
    assert same("clearsnapshot")[0] == 1  # neither a name nor --all: a command-line error
    assert same("nosuchcommand")[0] == 1

    # ring: every token of the node, in token order, effective ownership with and without a keyspace
    ring = same("ring")[1]
    assert len([l for l in ring.splitlines() if l.startswith(f"{node.host} ")]) == 16, ring
    assert "100.00%" in ring and 'Warning: "nodetool ring" is used to output all the tokens of a node.' in ring
    assert same("ring", "cmp")[0] == 0
    assert same("ring", "-r")[0] == 0
    code, out = same("ring", "nosuch")
    assert code == 1 and "Error: The keyspace nosuch, does not exist" in out

    # netstats: the mode, no stream, read repair and internode pool counts (none on a node alone)
    netstats = same("netstats")[1]
    assert netstats.startswith("Mode: NORMAL\nNot sending any streams.\nRead Repair Statistics:\n"), netstats
    assert same("netstats", "-H")[0] == 0

    # repair: Apache's options reach the node; on one node (RF=1) nothing to repair, said per keyspace with a timestamp
    def repair(*args):
        a = run("apache", "repair", *args)
        o = run("ours", "repair", *args)
        stamp = re.compile(r"^\[\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3}\] ", re.M)
        assert (o[0], stamp.sub("[#] ", o[1])) == (a[0], stamp.sub("[#] ", a[1])), (args, a, o)
        return a
    code, out = repair("-full", "cmp")
    assert code == 0 and out.endswith("Replication factor is 1. No repair is needed for keyspace 'cmp'\n"), out
    code, out = repair("--full")  # every keyspace that is not local, system_distributed only when named
    assert code == 0 and "keyspace 'cmp'" in out and "system_distributed" not in out, out
    assert repair("-full", "cmp", "t")[0] == 0
    assert repair("-full", "nosuch")[0] == 1
    assert repair("cmp")[0] == 2  # incremental (the default) is refused by the node, naming it
    assert repair("-pr", "-dc", "dc1", "cmp")[0] == 2

    # tablestats and tablehistograms: figures of a table nobody touches between the two calls compare exactly
    assert same("flush", "cmp")[0] == 0
    stats = same("tablestats", "cmp.t")[1]
    assert "Total number of tables: 1\n" in stats and "\t\tTable: t\n" in stats
    assert re.search(r"^\t\tLocal write count: 100$", stats, re.M), stats
    assert int(_line(stats, "SSTable count")) >= 1 and int(_line(stats, "Space used (live)")) > 0
    assert same("tablestats", "cmp")[0] == 0
    assert same("tablestats", "-H", "cmp.t")[0] == 0
    # every table: the system keyspaces' figures may move between the two calls (background writes), so by shape
    def same_shape(*args):
        a = run("apache", *args)
        o = run("ours", *args)
        assert (o[0], _shape(o[1])) == (a[0], _shape(a[1])), f"nodetool {' '.join(args)}:\n{a[1]}\n---\n{o[1]}"
        return a
    everything = same_shape("tablestats")[1]
    assert "Keyspace: cmp\n" in everything and "Keyspace: system_schema\n" in everything
    assert "Keyspace: cmp\n" not in same_shape("tablestats", "-i", "cmp")[1]
    assert same("tablestats", "nosuch")[0] == 1
    assert same("tablestats", "cmp.nosuch")[0] == 1
    assert same("cfstats", "cmp.t")[0] == 1  # Apache 5.0.6 has no cfstats alias any more

    # -F json|yaml: the same keys, nesting and number formatting as Apache's (exactly where no figure moves)
    assert run("apache", "compact", "cmp", "t")[0] == 0
    for fmt in ("json", "yaml"):
        assert same("tablestats", "-F", fmt, "cmp.t")[0] == 0
        assert same("tablestats", "--format", fmt, "-H", "cmp")[0] == 0
        assert same("tablestats", "-F", fmt, "-i", "cmp", "system_schema")[0] == 0
        assert same_shape("tablestats", "-F", fmt)[0] == 0
        assert same_shape("tpstats", "-F", fmt)[0] == 0
        assert same("compactionhistory", "-F", fmt)[0] == 0
    figures = json.loads(same("tablestats", "-F", "json", "cmp.t")[1])
    assert figures["total_number_of_tables"] == 1 and figures["cmp"]["tables"]["t"]["local_write_count"] == 100
    assert any(c["keyspace_name"] == "cmp" for c in json.loads(same("compactionhistory", "-F", "json")[1])
               ["CompactionHistory"])
    assert "statement-shard0" in json.loads(same_shape("tpstats", "-F", "json")[1])["ThreadPools"]
    for command in ("tablestats", "tpstats", "compactionhistory"):
        code, out = same(command, "-F", "xml")
        assert code == 1, out  # "arguments for -F are json,yaml only." on stderr

    # tablestats -s/-t/-l: Apache's sort keys, order (descending, ties by full name), top K and location check
    with connect(node) as session:
        session.execute("CREATE TABLE cmp.small (k int PRIMARY KEY, v text)")
        session.execute("CREATE TABLE cmp.tw (k int PRIMARY KEY, v text) WITH compaction = "
                        "{'class': 'TimeWindowCompactionStrategy'}")
        for i in range(10):
            session.execute("INSERT INTO cmp.small (k, v) VALUES (%s, 'x')", (i,))
            session.execute("INSERT INTO cmp.tw (k, v) VALUES (%s, 'y')", (i,))
    assert same("flush", "cmp")[0] == 0
    for key in ("space_used_live", "writes", "reads", "local_read_latency_ms", "memtable_cell_count",
                "sstable_count", "table_name", "full_name", "twcs_max_duration", "max_sstable_size",
                "bloom_filter_space_used", "sai_total_queryable_index_ratio", "number_of_partitions_estimate"):
        assert same("tablestats", "-s", key, "cmp")[0] == 0
        assert same("tablestats", "--sort", key, "-t", "2", "-H", "cmp")[0] == 0
    sorted_writes = same("tablestats", "-s", "writes", "-t", "2", "cmp")[1]
    assert sorted_writes.startswith("Total number of tables: 3 (showing top 2 by writes)\n"), sorted_writes
    assert "\tTable: cmp.t\n" in sorted_writes and "cmp.small" in sorted_writes and "cmp.tw" not in sorted_writes
    assert same("tablestats", "-s", "writes", "-F", "json", "cmp")[0] == 0
    assert same("tablestats", "-s", "full_name", "-t", "1", "-F", "yaml", "cmp")[0] == 0
    assert same("tablestats", "-l", "cmp")[0] == 0
    assert "SSTables in correct location: true" in same("tablestats", "--sstable-location-check", "cmp.t")[1]
    assert same("tablestats", "-l", "-F", "json", "cmp.t")[0] == 0
    assert same("tablestats", "-s", "nosuch")[0] == 1  # the keys Apache's nodetool accepts
    assert same("tablestats", "-t", "2")[0] == 1  # a top K needs a sort key
    assert same("tablestats", "-s", "reads", "-t", "-1")[0] == 1
    assert same("tablestats", "-s", "dropped_mutations", "cmp")[0] == 1  # accepted, then "Unsupported sort key"
    hist = same("tablehistograms", "cmp", "t")[1]
    assert "cmp/t histograms\n" in hist and re.search(r"^Max\s+[\d.]+\s+[\d.]+", hist, re.M), hist
    # the flushed partitions' sizes and cells (one each), the same in both tools
    sizes, cells = _size_and_cell_columns(hist)
    assert 0 < sizes["Min"] <= sizes["50%"] <= sizes["Max"] < 200, hist
    assert cells == {"50%": 1, "75%": 1, "95%": 1, "98%": 1, "99%": 1, "Min": 0, "Max": 1}, hist
    assert int(_line(stats, "Compacted partition maximum bytes")) == sizes["Max"]
    assert same("tablehistograms", "cmp.t")[0] == 0
    # cells per partition are counted as Cassandra counts them (static row, collection elements and cell tombstones
    # are cells; a collection's deletion and a row marker are not): the reference node's column for the same writes
    assert same("flush", "cells")[0] == 0
    cells = _size_and_cell_columns(same("tablehistograms", "cells", "u")[1])[1]
    assert cells == CELLS_WORKLOAD_REFERENCE, cells
    assert same_shape("tablehistograms")[0] == 0
    assert same("tablehistograms", "cmp")[0] == 1
    assert same("tablehistograms", "cmp", "nosuch")[0] == 1
    assert same("cfhistograms", "cmp", "t")[0] == 1

    assert run("ours", "drain") == (0, "")
    assert same("status")[0] == 0
    assert run("ours", "stopdaemon") == (0, "")
    assert node.proc.wait(timeout=60) == 0
    code, out = run("ours", "version")
    assert code == 1 and out == ""  # no node: Apache's "nodetool: Failed to connect ..." goes to stderr


def test_compaction_history_survives_a_restart(nodetool_env, node_factory):
    """Each finished compaction is a row of system.compaction_history (Cassandra's schema, a week's TTL): CQL reads
    it, and after a restart Apache's nodetool and bin/nodetool still list it, the same way."""
    node = node_factory("nodetool-history").start()
    _wait_for_port(node.host, node.jmx_port)
    nodetool = Nodetool(nodetool_env, node)

    def ours(*args):
        r = subprocess.run([str(REPO / "bin" / "nodetool"), "-h", node.host, "-p", str(node.jmx_port), *args],
                           stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=CALL_TIMEOUT_S)
        assert r.returncode == 0, (args, r.stdout, r.stderr)
        return r.stdout

    with connect(node) as session:
        session.execute("CREATE KEYSPACE hist WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}")
        session.execute("CREATE TABLE hist.t (k int PRIMARY KEY, v text)")
        for batch in range(3):
            for i in range(batch * 20, batch * 20 + 40):
                session.execute("INSERT INTO hist.t (k, v) VALUES (%s, %s)", (i, f"v{i}"))
            nodetool("flush", "hist", "t")
    nodetool("compact", "hist", "t")
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and " hist " not in nodetool("compactionhistory"):
        time.sleep(0.5)
    before = [l for l in nodetool("compactionhistory").splitlines() if " hist " in l]
    assert len(before) == 2, before  # a major compaction on each of the two shards
    with connect(node) as session:
        rows = [r for r in session.execute("SELECT id, keyspace_name, columnfamily_name, bytes_in, bytes_out, "
                                           "rows_merged, compaction_properties, TTL(bytes_in) AS ttl "
                                           "FROM system.compaction_history") if r.keyspace_name == "hist"]
        assert sorted(str(r.id) for r in rows) == sorted(l.split()[0] for l in before)
        assert all(r.columnfamily_name == "t" and r.bytes_in > 0 and r.bytes_out > 0 and r.rows_merged
                   and 604_000 < r.ttl <= 604_800 for r in rows), rows
        table = session.execute("SELECT default_time_to_live FROM system_schema.tables WHERE keyspace_name = 'system' "
                                "AND table_name = 'compaction_history'").one()
        assert table.default_time_to_live == 604_800

    node.stop()
    node.start()
    _wait_for_port(node.host, node.jmx_port)
    history = nodetool("compactionhistory")
    assert [l for l in history.splitlines() if " hist " in l] == before, history
    assert ours("compactionhistory") == history
    assert ours("compactionhistory", "-F", "json") == nodetool("compactionhistory", "-F", "json")
    with connect(node) as session:
        ids = {str(r.id) for r in session.execute("SELECT id FROM system.compaction_history")}
        assert {l.split()[0] for l in before} <= ids


def _shape(text):
    """Output with every number replaced (and runs of blanks, which pad numbers to their column's width), for outputs
    whose figures move between two calls (latencies, uptime, rates)."""
    return re.sub(r"[ \t]+", " ", re.sub(r"\d+(\.\d+)?", "#", text))


def test_nodetool_management_commands(nodetool_env, node_factory, tmp_path):
    """Apache's nodetool 5.0.6 runs tpstats, proxyhistograms, describering, compactionhistory, enable/disable
    autocompaction, get/setcompactionthroughput, garbagecollect, import and refresh against a node, with checked
    values; bin/nodetool prints the same for each (by shape where figures move)."""
    node = node_factory("nodetool-mgmt").start()
    _wait_for_port(node.host, node.jmx_port)
    nodetool = Nodetool(nodetool_env, node)

    def ours(*args):
        r = subprocess.run([str(REPO / "bin" / "nodetool"), "-h", node.host, "-p", str(node.jmx_port), *args],
                           stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=CALL_TIMEOUT_S)
        ours.stderr = r.stderr
        return r.returncode, r.stdout

    def both(*args, shape=False):
        a = nodetool(*args)
        code, o = ours(*args)
        assert code == 0, (args, o, ours.stderr)
        if shape:
            assert _shape(o) == _shape(a), f"nodetool {' '.join(args)}:\napache:\n{a}\nours:\n{o}"
        else:
            assert o == a, f"nodetool {' '.join(args)}:\napache:\n{a}\nours:\n{o}"
        return a

    with connect(node) as session:
        session.execute("CREATE KEYSPACE mg WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}")
        session.execute("CREATE TABLE mg.t (k int PRIMARY KEY, v text) WITH gc_grace_seconds = 0")
        session.execute("CREATE TABLE mg.src (k int PRIMARY KEY, v text) WITH compaction = "
                        "{'class': 'SizeTieredCompactionStrategy', 'enabled': 'false'}")
        insert = session.prepare("INSERT INTO mg.t (k, v) VALUES (?, ?)")

        # disableautocompaction really stops compaction: six flushes stay six SSTables per shard
        both("disableautocompaction", "mg", "t")
        assert both("statusautocompaction", "mg", "t") == "not running\n"
        assert both("statusautocompaction", "mg") == "not running\n"  # mg.src: 'enabled': 'false'
        for batch in range(6):
            for i in range(batch * 50, (batch + 1) * 50):
                session.execute(insert, (i, f"v{i}"))
            nodetool("flush", "mg", "t")
        time.sleep(2)
        assert len(_sstables(node, "mg", "t")) == 12  # six SSTables on each of the two shards: none compacted
        before = len(_sstables(node, "mg", "t"))
        assert "mg" not in nodetool("compactionhistory")
        # enableautocompaction: the size-tiered strategy compacts them at once
        both("enableautocompaction", "mg", "t")
        assert both("statusautocompaction", "mg", "t") == "running\n"
        assert both("statusautocompaction", "mg") == "partially running\n"
        both("statusautocompaction", "-a")
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and len(_sstables(node, "mg", "t")) >= before:
            time.sleep(0.5)
        assert len(_sstables(node, "mg", "t")) < before
        history = nodetool("compactionhistory")
        rows = [l.split() for l in history.splitlines() if " mg " in f" {l} "]
        assert rows and rows[0][1:3] == ["mg", "t"], history
        assert re.match(r"\{\d+:\d+(, \d+:\d+)*\}", rows[0][6]) and rows[0][7] == "{compaction_type:Compaction}"
        assert int(rows[0][4]) > 0 and int(rows[0][5]) > 0
        code, o = ours("compactionhistory")
        assert code == 0 and _shape(o) == _shape(nodetool("compactionhistory")), (o, ours.stderr)

        for i in range(100):
            assert session.execute("SELECT v FROM mg.t WHERE k = %s", (i,)).one().v == f"v{i}"
        session.execute("SELECT * FROM mg.t")

        # the option 'enabled': 'false' is what the schema keeps; nodetool's switch overrides it at run time and
        # survives a change of the compaction options (what Cassandra 5.0.6 answered on the reference node)
        session.execute("CREATE TABLE mg.off (k int PRIMARY KEY) WITH compaction = "
                        "{'class': 'SizeTieredCompactionStrategy', 'enabled': 'false'}")
        assert both("statusautocompaction", "mg", "off") == "not running\n"
        both("enableautocompaction", "mg", "off")
        assert both("statusautocompaction", "mg", "off") == "running\n"
        session.execute("ALTER TABLE mg.off WITH compaction = {'class': 'SizeTieredCompactionStrategy', "
                        "'enabled': 'false', 'min_threshold': '6'}")
        assert both("statusautocompaction", "mg", "off") == "running\n"
        session.execute("ALTER TABLE mg.off WITH compaction = {'class': 'SizeTieredCompactionStrategy'}")
        session.execute("ALTER TABLE mg.off WITH compaction = {'class': 'SizeTieredCompactionStrategy', "
                        "'enabled': 'false'}")
        assert both("statusautocompaction", "mg", "off") == "not running\n"  # no switch in between: the option
        session.execute("DROP TABLE mg.off")

    # tpstats: each shard's scheduling groups as pools, with what they did
    tp = both("tpstats", shape=True)
    pools = {l.split()[0]: l.split()[1:] for l in tp.splitlines()[1:] if l.strip() and "-shard" in l.split()[0]}
    assert {f"{g}-shard{s}" for g in ("statement", "memtable", "compaction") for s in range(2)} == set(pools), tp
    assert pools["statement-shard0"][0] == "N/A" and int(pools["statement-shard0"][2]) > 0
    assert sum(int(pools[f"memtable-shard{s}"][2]) for s in range(2)) >= 6
    assert sum(int(pools[f"compaction-shard{s}"][2]) for s in range(2)) >= 1
    assert "Latencies waiting in queue (micros) per dropped message types" in tp

    # proxyhistograms: coordinator latencies of the reads and writes above
    proxy = both("proxyhistograms", shape=True)
    p50 = re.search(r"^50%\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)", proxy, re.M)
    assert p50 and float(p50.group(1)) > 0 and float(p50.group(2)) > 0 and float(p50.group(3)) > 0, proxy

    # describering: one range per token, this node the replica
    ring = both("describering", "mg")
    ranges = [l for l in ring.splitlines() if l.startswith("\tTokenRange(")]
    assert len(ranges) == 16 and all(f"endpoints:[{node.host}]" in r for r in ranges), ring
    r = subprocess.run([str(NODETOOL), "-h", node.host, "-p", str(node.jmx_port), "describering", "system"],
                       env=nodetool.env, capture_output=True, text=True, timeout=CALL_TIMEOUT_S)
    assert r.returncode == 2 and "There is no ring for the keyspace: system" in r.stderr
    assert ours("describering", "system")[0] == 2

    # compaction throughput: the cap the backlog controller works under
    both("setcompactionthroughput", "16")
    assert both("getcompactionthroughput") == "Current compaction throughput: 16 MB/s\n"
    assert both("getcompactionthroughput", "-d") == "Current compaction throughput: 16.0 MiB/s\n"
    both("setcompactionthroughput", "0")
    assert both("getcompactionthroughput") == "Current compaction throughput: 0 MB/s\n"

    # garbagecollect: deleted partitions (gc_grace_seconds 0) leave the SSTables
    with connect(node) as session:
        for i in range(0, 300, 2):
            session.execute("DELETE FROM mg.t WHERE k = %s", (i,))
    nodetool("flush", "mg", "t")
    both("garbagecollect", "mg", "t")
    assert int(_line(nodetool("tablestats", "mg.t"), "Number of partitions (estimate)")) == 150

    # import: a snapshot's SSTables back into the table after a truncate (copied: the snapshot stays)
    nodetool("snapshot", "-t", "saved", "mg")
    with connect(node) as session:
        session.execute("TRUNCATE mg.t")
        assert session.execute("SELECT count(*) FROM mg.t").one()[0] == 0
        snapshot_dir = next(Path(node.workdir, "data", "mg").glob("t-*")) / "snapshots" / "saved"
        nodetool("import", "--copy-data", "mg", "t", str(snapshot_dir))
        assert session.execute("SELECT count(*) FROM mg.t").one()[0] == 150
        assert any(snapshot_dir.glob("*Data*"))
        code, _ = ours("import", "mg", "t", str(tmp_path / "missing"))
        assert code == 1

        # refresh: SSTables copied into the table's directory with generations the table never used (no compaction
        # of the table runs meanwhile: one would take generation numbers the copies may carry)
        nodetool("disableautocompaction", "mg", "t")
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and re.search(r"\bmg\s+t\b", nodetool("compactionstats")):
            time.sleep(0.5)
        src_insert = session.prepare("INSERT INTO mg.src (k, v) VALUES (?, ?)")
        for batch in range(40):
            session.execute(src_insert, (10_000 + batch, f"s{batch}"))
            nodetool("flush", "mg", "src")
        t_dir = next(Path(node.workdir, "data", "mg").glob("t-*"))
        used = max(int(p.name.split("-")[1]) for p in t_dir.glob("cb-*-TOC.txt"))
        src_dir = next(Path(node.workdir, "data", "mg").glob("src-*"))
        copied = set()
        for p in src_dir.glob("cb-*"):
            if int(p.name.split("-")[1]) > used:
                shutil.copy(p, t_dir / p.name)
                copied.add(int(p.name.split("-")[1]))
        assert copied
        out = nodetool("refresh", "mg", "t")
        assert out == "nodetool refresh is deprecated, use nodetool import instead\n"
        rows = session.execute("SELECT k FROM mg.t WHERE k >= 10000 ALLOW FILTERING").all()
        assert sorted(r.k for r in rows) == sorted(10000 + g - 1 for g in copied), rows

    # the cluster commands, on a node alone
    assert "Live: 1" in both("describecluster")
    assert f"/{node.host}" in both("gossipinfo")
    assert both("getendpoints", "mg", "t", "7") == f"{node.host}\n"
    both("compact", "mg", "t")
    both("cleanup", "mg")
    assert both("removenode", "status") == "RemovalStatus: No removals in process.\n"
    assert re.search(r"^compactions completed\s+[1-9]", both("compactionstats", shape=True), re.M)
    both("compactionstats", "-H", shape=True)
    # tablestats and tablehistograms of a table that was written, flushed, compacted and read
    stats = both("tablestats", "mg.t", shape=True)
    assert int(_line(stats, "Local read count")) >= 100 and int(_line(stats, "SSTable count")) >= 1, stats
    hist = both("tablehistograms", "mg", "t", shape=True)
    p50 = re.search(r"^50%\s+([\d.]+)\s+([\d.]+)", hist, re.M)
    assert p50 and float(p50.group(1)) > 0 and float(p50.group(2)) > 0, hist
    both("ring", "mg")
    both("netstats")

    # info: Apache's lines; bin/nodetool's the same plus the memory budget's split
    apache_info = nodetool("info")
    code, our_info = ours("info")
    assert code == 0
    lines = our_info.splitlines()
    assert _shape("\n".join(lines[:-4])) == _shape(apache_info.rstrip("\n")), f"{apache_info}\n---\n{our_info}"
    assert re.match(r"Memory budget\s+: 256 MiB", lines[-4]), lines[-4:]
    assert lines[-3].startswith("  Memtables") and lines[-2].startswith("  Row cache")
    assert lines[-1].startswith("Index structures") and not lines[-1].endswith(": 0 bytes"), lines[-4:]

    both("getlogginglevels")
    both("setlogginglevel", "io.charybdis.storage", "DEBUG")
    assert re.search(r"^io\.charybdis\.storage\s+DEBUG$", both("getlogginglevels"), re.M)


def test_bin_nodetool_repair_follows_a_repair_as_apache_nodetool_does(nodetool_env, node_factory):
    """A full repair of an RF=2 keyspace on two nodes: bin/nodetool follows the node's progress notifications to the
    end and prints the same messages as Apache's nodetool 5.0.6 (by shape: session ids, times and figures vary)."""
    from test_cluster import _cluster_nodes, _session

    nodes = _cluster_nodes(node_factory, count=2)
    for n in nodes:
        n.start()
    node = nodes[0]
    _wait_for_port(node.host, node.jmx_port)
    cluster, session = _session(node)
    try:
        session.execute("CREATE KEYSPACE rp WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 2}")
        session.execute("CREATE TABLE rp.t (k int PRIMARY KEY, v text)")
        assert cluster.control_connection.wait_for_schema_agreement()
        insert = session.prepare("INSERT INTO rp.t (k, v) VALUES (?, ?)")
        for k in range(200):
            session.execute(insert, (k, f"v{k}"))
    finally:
        cluster.shutdown()

    def shape(text):
        text = re.sub(r"^\[[^\]]*\] ", "", text, flags=re.M)
        text = re.sub(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}", "<id>", text)
        return _shape(text)

    outputs = {}
    for tool in ("apache", "ours"):
        cmd = [str(NODETOOL) if tool == "apache" else str(REPO / "bin" / "nodetool"), "-h", node.host, "-p",
               str(node.jmx_port), "repair", "--full", "rp"]
        r = subprocess.run(cmd, env=nodetool_env if tool == "apache" else None, stdin=subprocess.DEVNULL,
                           capture_output=True, text=True, timeout=FIRST_CALL_TIMEOUT_S)
        assert r.returncode == 0, (tool, r.stdout, r.stderr)
        outputs[tool] = r.stdout
    assert "Starting repair command #" in outputs["ours"] and "finished" in outputs["ours"], outputs["ours"]
    assert shape(outputs["ours"]) == shape(outputs["apache"]), f"{outputs['apache']}\n---\n{outputs['ours']}"
