"""One client must never stop or stall the node: a node with a 256 MiB heap, flooded by raw sockets that pipeline
`SELECT * FROM system.local` without ever reading the answers, with a thousand more connections held open and idle,
keeps serving a well-behaved python-driver client (every request answered within its timeout, every acknowledged
write readable afterwards) and stays alive.

Before back-pressure (issue 16) this flood filled the heap with pending responses: OutOfMemoryError within 30 s
at 256 MiB; at 1 GiB a minute's stall, the well-behaved client's median latency at 330 ms and some of its requests
failing.
"""

import socket
import statistics
import struct
import threading
import time

import pytest
from cassandra.cluster import EXEC_PROFILE_DEFAULT, Cluster, ExecutionProfile
from cassandra.policies import RoundRobinPolicy

from conftest import NodeProcess, unique_name

FLOOD_SECONDS = 18
FLOODERS = 4
IDLE_CONNECTIONS = 1200
REQUEST_TIMEOUT_S = 10.0  # the driver's default
HEAP = "256m"


class SmallHeapNode(NodeProcess):
    def environment(self):
        env = super().environment()
        env["CHARYBDIS_HEAP"] = HEAP
        return env


def frame(stream, opcode, body):
    return struct.pack(">BBhBi", 0x04, 0x00, stream, opcode, len(body)) + body


def string(s):
    b = s.encode()
    return struct.pack(">H", len(b)) + b


STARTUP = frame(0, 0x01, struct.pack(">H", 1) + string("CQL_VERSION") + string("3.0.0"))


def pipelined_queries(count):
    query = b"SELECT * FROM system.local"
    body = struct.pack(">i", len(query)) + query + struct.pack(">HB", 0x0001, 0)
    return b"".join(frame(i % 32768, 0x07, body) for i in range(count))


class Flooder(threading.Thread):
    """Pipelines queries as fast as the socket takes them and never reads an answer."""

    def __init__(self, node, stop):
        super().__init__(daemon=True)
        self.node, self.stop, self.sent, self.error = node, stop, 0, None

    def run(self):
        chunk = pipelined_queries(2000)
        try:
            with socket.create_connection((self.node.host, self.node.port), timeout=10) as s:
                s.sendall(STARTUP)
                s.settimeout(0.5)
                view = memoryview(chunk)
                offset = 0
                while not self.stop.is_set():
                    try:
                        n = s.send(view[offset:])
                    except socket.timeout:
                        continue  # the server stopped reading from us: that is the point
                    self.sent += n
                    offset = (offset + n) % len(chunk)
        except OSError as e:
            if not self.stop.is_set():
                self.error = e


def open_idle_connections(node, count):
    conns = []
    for i in range(count):
        s = socket.create_connection((node.host, node.port), timeout=10)
        if i % 2 == 0:
            s.sendall(STARTUP)  # half of them through the handshake, half not even that
        conns.append(s)
    return conns


def test_flood_does_not_stall_or_kill_the_node(node_factory, tmp_path):
    node = SmallHeapNode(tmp_path / "flooded")
    node_factory.made.append(node)  # stopped by the fixture whatever happens
    node.start()

    profile = ExecutionProfile(load_balancing_policy=RoundRobinPolicy(), request_timeout=REQUEST_TIMEOUT_S)
    cluster = Cluster(contact_points=[node.host], port=node.port, execution_profiles={EXEC_PROFILE_DEFAULT: profile},
                      connect_timeout=30, control_connection_timeout=30)
    stop = threading.Event()
    flooders = []
    idle = []
    try:
        session = cluster.connect()
        ks = unique_name("flood")
        session.execute(f"CREATE KEYSPACE {ks} WITH replication = {{'class': 'SimpleStrategy', "
                        f"'replication_factor': 1}}")
        session.execute(f"CREATE TABLE {ks}.t (k int PRIMARY KEY, v text)")
        insert = session.prepare(f"INSERT INTO {ks}.t (k, v) VALUES (?, ?)")
        select = session.prepare(f"SELECT v FROM {ks}.t WHERE k = ?")

        flooders = [Flooder(node, stop) for _ in range(FLOODERS)]
        for f in flooders:
            f.start()
        idle = open_idle_connections(node, IDLE_CONNECTIONS)

        acknowledged = []
        latencies = []
        deadline = time.monotonic() + FLOOD_SECONDS
        k = 0
        while time.monotonic() < deadline:
            started = time.monotonic()
            session.execute(insert, (k, f"value-{k}"))  # raises on timeout or error: the test fails
            acknowledged.append(k)
            row = session.execute(select, (k,)).one()
            latencies.append(time.monotonic() - started)
            assert row is not None and row.v == f"value-{k}"
            k += 1
            time.sleep(0.005)

        assert node.running(), f"the node died during the flood\n{node.log_tail()}"
        assert all(f.error is None for f in flooders), [f.error for f in flooders]
        flooded = sum(f.sent for f in flooders)
        stop.set()
        for f in flooders:
            f.join(timeout=5)
        for s in idle:
            s.close()

        for k in acknowledged:
            row = session.execute(select, (k,)).one()
            assert row is not None and row.v == f"value-{k}", f"acknowledged write {k} not readable"
        assert node.running()

        latencies.sort()
        print(f"\nflood: {FLOODERS} flooders sent {flooded / 1e6:.1f} MB in {FLOOD_SECONDS}s, {IDLE_CONNECTIONS} idle "
              f"connections; well-behaved client: {len(latencies)} write+read pairs, median "
              f"{statistics.median(latencies) * 1000:.1f} ms, p99 "
              f"{latencies[int(len(latencies) * 0.99) - 1] * 1000:.1f} ms, max {latencies[-1] * 1000:.1f} ms")
    finally:
        stop.set()
        for s in idle:
            s.close()
        cluster.shutdown()
