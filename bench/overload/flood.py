#!/usr/bin/env python3
"""The flood of issue 16, measured: a node started by bin/charybdis (of any checkout) is flooded by raw sockets that
pipeline `SELECT * FROM system.local` and never read the answers, plus idle connections held open, while a
well-behaved python-driver client writes and reads one row at a time. Prints the client's latencies and failures
and the node's resident memory, once a second and at the end.

    .venv/bin/python bench/overload/flood.py [--repo DIR] [--heap 256m] [--seconds 30] [--flooders 4] [--idle 1000]
"""

import argparse
import multiprocessing
import os
import signal
import socket
import statistics
import struct
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from cassandra.cluster import EXEC_PROFILE_DEFAULT, Cluster, ExecutionProfile
from cassandra.policies import RoundRobinPolicy


def free_ports(count):
    socks = [socket.socket() for _ in range(count)]
    for s in socks:
        s.bind(("127.0.0.1", 0))
    ports = [s.getsockname()[1] for s in socks]
    for s in socks:
        s.close()
    return ports


def frame(stream, opcode, body):
    return struct.pack(">BBhBi", 0x04, 0x00, stream, opcode, len(body)) + body


def string(s):
    b = s.encode()
    return struct.pack(">H", len(b)) + b


STARTUP = frame(0, 0x01, struct.pack(">H", 1) + string("CQL_VERSION") + string("3.0.0"))
QUERY = b"SELECT * FROM system.local"
CHUNK = b"".join(frame(i, 0x07, struct.pack(">i", len(QUERY)) + QUERY + struct.pack(">HB", 1, 0))
                 for i in range(2000))


def flood(port, stop, sent):
    """One flooding socket; runs in a process of its own, so that it does not take the driver's interpreter."""
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
            s.sendall(STARTUP)
            s.settimeout(0.5)
            view, offset = memoryview(CHUNK), 0
            while not stop.is_set():
                try:
                    n = s.send(view[offset:])
                except socket.timeout:
                    continue
                with sent.get_lock():
                    sent.value += n
                offset = (offset + n) % len(CHUNK)
    except OSError:
        pass


def rss_mib(pid):
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) // 1024
    except OSError:
        return None
    return None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--repo", default=str(Path(__file__).resolve().parents[2]))
    ap.add_argument("--heap", default="256m")
    ap.add_argument("--seconds", type=int, default=30)
    ap.add_argument("--flooders", type=int, default=4)
    ap.add_argument("--idle", type=int, default=1000)
    ap.add_argument("--warmup", type=float, default=5.0, help="seconds of the client alone before the flood")
    ap.add_argument("--timeout", type=float, default=5.0, help="the well-behaved client's request timeout, s")
    args = ap.parse_args()

    work = Path(tempfile.mkdtemp(prefix="charybdis-flood-"))
    port, sa_port, storage, jmx, prom = free_ports(5)
    env = {k: v for k, v in os.environ.items() if not k.startswith("CHARYBDIS_")}
    env.update(CHARYBDIS_HEAP=args.heap, CHARYBDIS_BUILD="never")
    cmd = [str(Path(args.repo) / "bin" / "charybdis"), "-f", "--smp", "2",
           f"-Dcharybdis.native_transport_port={port}", f"-Dcharybdis.native_shard_aware_transport_port={sa_port}",
           f"-Dcharybdis.storage_port={storage}", f"-Dcharybdis.jmx_port={jmx}",
           f"-Dcharybdis.prometheus_port={prom}", "-Dcharybdis.memory_budget=256MiB"]
    out = open(work / "node.log", "wb")
    node = subprocess.Popen(cmd, cwd=work, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
    stop = multiprocessing.Event()
    sent = multiprocessing.Value("q", 0)
    flooders = []
    idle = []
    try:
        deadline = time.monotonic() + 120
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                if node.poll() is not None or time.monotonic() > deadline:
                    sys.exit(f"node did not start; see {work}/node.log")
                time.sleep(0.25)
        profile = ExecutionProfile(load_balancing_policy=RoundRobinPolicy(), request_timeout=args.timeout)
        cluster = Cluster(contact_points=["127.0.0.1"], port=port, connect_timeout=30,
                          execution_profiles={EXEC_PROFILE_DEFAULT: profile})
        session = cluster.connect()
        session.execute("CREATE KEYSPACE flood WITH replication = {'class': 'SimpleStrategy', "
                        "'replication_factor': 1}")
        session.execute("CREATE TABLE flood.t (k int PRIMARY KEY, v text)")
        insert = session.prepare("INSERT INTO flood.t (k, v) VALUES (?, ?)")
        select = session.prepare("SELECT v FROM flood.t WHERE k = ?")
        warm = time.monotonic() + args.warmup
        k = -1
        while time.monotonic() < warm:  # the client's warm-up, before any flood: k < 0
            session.execute(insert, (k, f"v{k}"))
            session.execute(select, (k,))
            k -= 1
        rss_before = rss_mib(node.pid)

        for _ in range(args.flooders):
            p = multiprocessing.Process(target=flood, args=(port, stop, sent), daemon=True)
            p.start()
            flooders.append(p)
        for _ in range(args.idle):
            try:
                idle.append(socket.create_connection(("127.0.0.1", port), timeout=5))
            except OSError:
                break

        latencies, failures, acknowledged, max_rss = [], 0, [], rss_before or 0
        start = time.monotonic()
        next_report = start + 1
        k = 0
        while time.monotonic() - start < args.seconds and node.poll() is None:
            t0 = time.monotonic()
            try:
                session.execute(insert, (k, f"v{k}"))
                acknowledged.append(k)
                session.execute(select, (k,))
                latencies.append(time.monotonic() - t0)
            except Exception as e:  # a timeout or an error is what we count
                failures += 1
            k += 1
            if time.monotonic() >= next_report:
                r = rss_mib(node.pid)
                max_rss = max(max_rss, r or 0)
                recent = sorted(latencies[-200:]) or [0]
                print(f"t={time.monotonic() - start:5.1f}s ok={len(latencies)} failed={failures} "
                      f"recent median={statistics.median(recent) * 1000:.1f}ms rss={r}MiB flood={sent.value / 1e6:.1f}MB",
                      flush=True)
                next_report += 1
        alive = node.poll() is None
        unreadable = 0
        if alive:
            stop.set()
            for s in idle:
                s.close()
            idle = []
            for key in acknowledged:
                try:
                    if session.execute(select, (key,)).one() is None:
                        unreadable += 1
                except Exception:
                    unreadable += 1
        latencies.sort()
        pct = (lambda p: latencies[max(0, int(len(latencies) * p) - 1)] * 1000) if latencies else (lambda p: float("nan"))
        print(f"RESULT heap={args.heap} seconds={args.seconds} flooders={args.flooders} idle={args.idle} "
              f"alive={alive} ok={len(latencies)} failed={failures} unreadable_acknowledged={unreadable} "
              f"median={pct(0.5):.1f}ms p99={pct(0.99):.1f}ms max={pct(1.0):.1f}ms "
              f"rss_before={rss_before}MiB rss_max={max_rss}MiB flood_sent={sent.value / 1e6:.1f}MB")
        if not alive:
            print(f"node exited with {node.returncode}; "
                  f"OutOfMemoryError in log: {b'OutOfMemoryError' in (work / 'node.log').read_bytes()}")
        cluster.shutdown()
    finally:
        stop.set()
        for p in flooders:
            p.join(timeout=5)
        for s in idle:
            s.close()
        if node.poll() is None:
            os.killpg(node.pid, signal.SIGKILL)
            node.wait()


if __name__ == "__main__":
    main()
