"""The flood of test_overload.py with security on: TLS (optional, so plain and TLS clients share the port),
PasswordAuthenticator, and the request rate limit. A node with a 256 MiB heap is flooded by authenticated clients that
pipeline `SELECT * FROM system.local` without reading the answers (over TLS and in plain text), one client that asked
for THROW_ON_OVERLOAD and reads its answers, and 2,400 more connections held open (plain and TLS, some mid-handshake).
A well-behaved python-driver client over TLS keeps getting every answer within its timeout; the flooders that do not
read get back-pressure (the node stops reading them), the THROW_ON_OVERLOAD one gets OVERLOADED errors; the process's
resident memory stays under heap + direct memory limit + a fixed allowance, nothing runs out of memory (the launcher
runs the JVM with -XX:+ExitOnOutOfMemoryError), and every acknowledged write is readable afterwards.
"""

import socket
import ssl
import statistics
import struct
import threading
import time

import pytest
from cassandra.auth import PlainTextAuthProvider
from cassandra.cluster import EXEC_PROFILE_DEFAULT, Cluster, ExecutionProfile
from cassandra.policies import RoundRobinPolicy

from conftest import NodeProcess, unique_name
from test_overload import frame, pipelined_queries, string
from tls_certs import Certificates, encryption_options

FLOOD_SECONDS = 18
IDLE_CONNECTIONS = 2400
REQUEST_TIMEOUT_S = 10.0  # the driver's default
HEAP_MIB = 256
MAX_REQUESTS_PER_SECOND = 4000
OVERLOADED = 0x1001
# Resident memory allowed beyond heap and direct memory: metaspace, code cache, thread stacks, GC structures
RSS_ALLOWANCE_MIB = 768


class SecureSmallHeapNode(NodeProcess):
    def environment(self):
        env = super().environment()
        env["CHARYBDIS_HEAP"] = f"{HEAP_MIB}m"
        return env

    def max_direct_mib(self):
        # as bin/charybdis sizes it from memory_budget (256MiB in the tests' command line)
        return 256 + 256 // 3 + 512

    def rss_mib(self):
        with open(f"/proc/{self.proc.pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) // 1024
        return 0


def startup(throw_on_overload=False):
    options = [("CQL_VERSION", "3.0.0")] + ([("THROW_ON_OVERLOAD", "1")] if throw_on_overload else [])
    body = struct.pack(">H", len(options)) + b"".join(string(k) + string(v) for k, v in options)
    return frame(0, 0x01, body)


def read_frame(s):
    header = recv_exactly(s, 9)
    _version, _flags, stream, opcode, length = struct.unpack(">BBhBi", header)
    return stream, opcode, recv_exactly(s, length)


def recv_exactly(s, n):
    data = b""
    while len(data) < n:
        chunk = s.recv(n - len(data))
        if not chunk:
            raise ConnectionError("closed by the node")
        data += chunk
    return data


def authenticated(s, throw_on_overload=False):
    """STARTUP, then PasswordAuthenticator's SASL PLAIN exchange as cassandra/cassandra."""
    s.sendall(startup(throw_on_overload))
    _, opcode, _ = read_frame(s)
    assert opcode == 0x03, f"expected AUTHENTICATE, got opcode {opcode:#x}"
    token = b"\x00cassandra\x00cassandra"
    s.sendall(frame(0, 0x0F, struct.pack(">i", len(token)) + token))
    _, opcode, body = read_frame(s)
    assert opcode == 0x10, f"expected AUTH_SUCCESS, got opcode {opcode:#x}: {body!r}"
    return s


class Client:
    def __init__(self, node, certs):
        self.node, self.certs = node, certs

    def connect(self, tls, timeout=10):
        s = socket.create_connection((self.node.host, self.node.port), timeout=timeout)
        if tls:
            ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
            ctx.load_verify_locations(self.certs.path("ca.pem"))
            s = ctx.wrap_socket(s, server_hostname=self.node.host)
        return s


class Flooder(threading.Thread):
    """Authenticates, then pipelines queries as fast as the socket takes them and never reads an answer."""

    def __init__(self, client, tls, stop):
        super().__init__(daemon=True)
        self.client, self.tls, self.stop, self.sent, self.error = client, tls, stop, 0, None

    def run(self):
        chunk = pipelined_queries(2000)
        try:
            with authenticated(self.client.connect(self.tls)) as s:
                s.settimeout(0.5)
                view = memoryview(chunk)
                offset = 0
                while not self.stop.is_set():
                    try:
                        n = s.send(view[offset:offset + 65536])
                    except (socket.timeout, ssl.SSLWantWriteError):
                        continue  # the node stopped reading from us: back-pressure
                    self.sent += n
                    offset = (offset + n) % len(chunk)
        except OSError as e:
            if not self.stop.is_set():
                self.error = e


class OverloadClient(threading.Thread):
    """THROW_ON_OVERLOAD: pipelines batches of queries and reads every answer, counting OVERLOADED errors."""

    def __init__(self, client, stop):
        super().__init__(daemon=True)
        self.client, self.stop, self.answered, self.overloaded, self.error = client, stop, 0, 0, None

    def run(self):
        batch = 500
        queries = pipelined_queries(batch)
        try:
            with authenticated(self.client.connect(False), throw_on_overload=True) as s:
                s.settimeout(REQUEST_TIMEOUT_S)
                while not self.stop.is_set():
                    s.sendall(queries)
                    for _ in range(batch):
                        _, opcode, body = read_frame(s)
                        self.answered += 1
                        if opcode == 0x00 and struct.unpack(">i", body[:4])[0] == OVERLOADED:
                            self.overloaded += 1
        except OSError as e:
            if not self.stop.is_set():
                self.error = e


def hold_connections(client, count):
    """Plain connections (half through STARTUP), TLS connections through the handshake, raw TCP to be TLS later."""
    conns = []
    for i in range(count):
        kind = i % 4
        if kind == 3:
            conns.append(client.connect(True))  # handshake done, nothing more
        else:
            s = client.connect(False)
            if kind == 0:
                s.sendall(startup())
            conns.append(s)
    return conns


@pytest.fixture(scope="module")
def certs(tmp_path_factory):
    return Certificates(tmp_path_factory.mktemp("certs"))


def test_secure_flood_does_not_stall_or_kill_the_node(node_factory, tmp_path, certs):
    node = SecureSmallHeapNode(tmp_path / "flooded", extra_args=[
        encryption_options(certs, optional=True),
        "-Dcharybdis.authenticator=PasswordAuthenticator",
        "-Dcharybdis.native_transport_rate_limiting_enabled=true",
        f"-Dcharybdis.native_transport_max_requests_per_second={MAX_REQUESTS_PER_SECOND}",
    ])
    node_factory.made.append(node)
    node.start()
    client = Client(node, certs)

    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    ctx.load_verify_locations(certs.path("ca.pem"))
    profile = ExecutionProfile(load_balancing_policy=RoundRobinPolicy(), request_timeout=REQUEST_TIMEOUT_S)
    cluster = Cluster(contact_points=[node.host], port=node.port, execution_profiles={EXEC_PROFILE_DEFAULT: profile},
                      connect_timeout=30, control_connection_timeout=30, ssl_context=ctx,
                      ssl_options={"server_hostname": node.host},
                      auth_provider=PlainTextAuthProvider("cassandra", "cassandra"))
    stop = threading.Event()
    flooders, held = [], []
    overload = None
    try:
        session = cluster.connect()
        ks = unique_name("sflood")
        session.execute(f"CREATE KEYSPACE {ks} WITH replication = {{'class': 'SimpleStrategy', "
                        f"'replication_factor': 1}}")
        session.execute(f"CREATE TABLE {ks}.t (k int PRIMARY KEY, v text)")
        insert = session.prepare(f"INSERT INTO {ks}.t (k, v) VALUES (?, ?)")
        select = session.prepare(f"SELECT v FROM {ks}.t WHERE k = ?")

        flooders = [Flooder(client, tls, stop) for tls in (False, False, True, True)]
        for f in flooders:
            f.start()
        overload = OverloadClient(client, stop)
        overload.start()
        held = hold_connections(client, IDLE_CONNECTIONS)

        acknowledged, latencies, rss = [], [], []
        deadline = time.monotonic() + FLOOD_SECONDS
        k = 0
        while time.monotonic() < deadline:
            started = time.monotonic()
            session.execute(insert, (k, f"value-{k}"))  # raises on timeout or error: the test fails
            acknowledged.append(k)
            row = session.execute(select, (k,)).one()
            latencies.append(time.monotonic() - started)
            assert row is not None and row.v == f"value-{k}"
            if k % 50 == 0:
                rss.append(node.rss_mib())
            k += 1
            time.sleep(0.005)

        assert node.running(), f"the node died during the flood\n{node.log_tail()}"
        assert all(f.error is None for f in flooders), [f.error for f in flooders]
        assert overload.error is None, overload.error
        flooded = sum(f.sent for f in flooders)
        stop.set()
        for f in flooders:
            f.join(timeout=5)
        overload.join(timeout=15)
        for s in held:
            s.close()

        assert overload.overloaded > 0, f"THROW_ON_OVERLOAD client got no OVERLOADED in {overload.answered} answers"
        # the non-reading flooders were held back: the node served at most the rate limit's worth of their requests
        # and stopped reading them; what they sent beyond that is what socket buffers hold (some MiB per socket)
        served_bound = MAX_REQUESTS_PER_SECOND * (FLOOD_SECONDS + 10) * 45
        assert flooded < served_bound + len(flooders) * 16 * 1024 * 1024, f"flooders sent {flooded} bytes unhindered"
        limit_mib = HEAP_MIB + node.max_direct_mib() + RSS_ALLOWANCE_MIB
        assert max(rss) < limit_mib, f"resident memory peaked at {max(rss)} MiB (limit {limit_mib} MiB)"
        log = node.log_tail()
        assert "OutOfMemoryError" not in log, log

        for k in acknowledged:
            row = session.execute(select, (k,)).one()
            assert row is not None and row.v == f"value-{k}", f"acknowledged write {k} not readable"
        assert node.running()

        latencies.sort()
        print(f"\nsecure flood: 4 flooders (2 TLS) sent {flooded / 1e6:.1f} MB in {FLOOD_SECONDS}s, "
              f"{IDLE_CONNECTIONS} held connections, THROW_ON_OVERLOAD client {overload.overloaded} OVERLOADED of "
              f"{overload.answered}; well-behaved TLS client: {len(latencies)} write+read pairs, median "
              f"{statistics.median(latencies) * 1000:.1f} ms, p99 "
              f"{latencies[int(len(latencies) * 0.99) - 1] * 1000:.1f} ms, max {latencies[-1] * 1000:.1f} ms; "
              f"peak RSS {max(rss)} MiB (limit {limit_mib} MiB)")
    finally:
        stop.set()
        for s in held:
            s.close()
        cluster.shutdown()
