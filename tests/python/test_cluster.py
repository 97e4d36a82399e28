"""Three Charybdis processes form a cluster through their seeds, and real drivers use it as a Cassandra ring.

Nodes listen on 127.0.0.1-3 (their own free ports). The first two are the seeds; the first forms the cluster's
metadata group and the others join it. Checked with the Python driver: the ring it discovers (system.peers_v2),
token-aware routing to the replica of each key, schema agreement, replication at QUORUM, and that QUORUM writes
go on while one node is killed with SIGKILL; once it is back, the hints the other nodes kept for it are delivered
(it has the rows it missed, read at ONE through it alone, which repairs nothing) and every acknowledged row reads
at ALL. Then the same with a QUORUM load from bin/charybdis-stress running through the kill and the restart: the
only failed writes are those in flight on the killed node's connections.
"""

import re
import subprocess
import threading
import time

import pytest

from conftest import REPO, NodeProcess, free_ports, unique_name

STRESS = REPO / "bin" / "charybdis-stress"
STRESS_THREADS = 8
STRESS_OPS = 12000
STRESS_RATE = 400  # op/s: the load lasts about 30 s, through the kill and the restart


def _cluster_nodes(node_factory, count=3):
    nodes = []
    metadata_ports = free_ports(count)
    for i in range(count):
        n = node_factory(f"n{i + 1}", smp=2)
        n.host = f"127.0.0.{i + 1}"
        nodes.append(n)
    seeds = f"127.0.0.1:{nodes[0].storage_port},127.0.0.2:{nodes[1].storage_port}"
    for n, mport in zip(nodes, metadata_ports):
        n.extra_args += [f"-Dcharybdis.listen_address={n.host}", f"-Dcharybdis.rpc_address={n.host}",
                         f"-Dcharybdis.metadata_port={mport}", f"-Dcharybdis.seeds={seeds}"]
    return nodes


def _until_available(request, seconds=30):
    """Runs `request`, retrying while the coordinator still counts a restarted node as down (Unavailable), or the
    driver has not reconnected its pools yet (NoHostAvailable)."""
    import time
    from cassandra import Unavailable
    from cassandra.cluster import NoHostAvailable

    deadline = time.monotonic() + seconds
    while True:
        try:
            return request()
        except (Unavailable, NoHostAvailable):
            if time.monotonic() > deadline:
                raise
            time.sleep(0.5)


def _session(node, **kwargs):
    from cassandra.cluster import EXEC_PROFILE_DEFAULT, Cluster, ExecutionProfile
    from cassandra.policies import DCAwareRoundRobinPolicy, TokenAwarePolicy

    profile = ExecutionProfile(load_balancing_policy=TokenAwarePolicy(DCAwareRoundRobinPolicy("datacenter1")),
                               request_timeout=30)
    cluster = Cluster(contact_points=[node.host], port=node.port,
                      execution_profiles={EXEC_PROFILE_DEFAULT: profile},
                      connect_timeout=30, control_connection_timeout=30, **kwargs)
    return cluster, cluster.connect()


def _pinned_session(node):
    """A session whose every request is coordinated by `node`."""
    from cassandra.cluster import EXEC_PROFILE_DEFAULT, Cluster, ExecutionProfile
    from cassandra.policies import WhiteListRoundRobinPolicy

    profile = ExecutionProfile(load_balancing_policy=WhiteListRoundRobinPolicy([node.host]), request_timeout=30)
    cluster = Cluster(contact_points=[node.host], port=node.port, execution_profiles={EXEC_PROFILE_DEFAULT: profile},
                      connect_timeout=30, control_connection_timeout=30)
    return cluster, cluster.connect()


def _await_rows_at_one(node, keyspace, expected, seconds=90):
    """Waits until `node` itself holds every row of `expected` (k -> v), read at ONE through it alone: a read at ONE
    is answered by the coordinator's own replica and repairs nothing, so only hints can have brought them."""
    from cassandra import ConsistencyLevel

    cluster, session = _pinned_session(node)
    try:
        select = _until_available(lambda: session.prepare(f"SELECT v FROM {keyspace}.t WHERE k = ?"))
        select.consistency_level = ConsistencyLevel.ONE
        deadline = time.monotonic() + seconds
        missing = dict(expected)
        while True:
            for k, v in list(missing.items()):
                row = _until_available(lambda: session.execute(select, (k,)).one())
                if row is not None and row.v == v:
                    del missing[k]
            if not missing:
                return
            if time.monotonic() > deadline:
                raise AssertionError(f"{node.host} still lacks {len(missing)} of {len(expected)} rows after {seconds}s"
                                     f" (hints not delivered): {sorted(missing)[:10]}")
            time.sleep(1)
    finally:
        cluster.shutdown()


def _stress_command(*args):
    return [str(STRESS), *args]


def _stress_results(output):
    total = re.search(r"^Total partitions\s*:\s*([\d,]+)", output, re.M)
    errors = re.search(r"^Total errors\s*:\s*([\d,]+)", output, re.M)
    assert total and errors, f"no Results block in:\n{output[-4000:]}"
    return int(total.group(1).replace(",", "")), int(errors.group(1).replace(",", ""))


def _run_stress(*args, timeout=300):
    import os
    env = dict(os.environ, CHARYBDIS_STRESS_HEAP="512M")
    result = subprocess.run(_stress_command(*args), cwd=REPO, env=env, stdin=subprocess.DEVNULL, capture_output=True,
                            text=True, timeout=timeout)
    output = result.stdout + result.stderr
    assert result.returncode == 0, f"charybdis-stress {' '.join(args)} exited with {result.returncode}:\n{output[-6000:]}"
    return output


def _hint_files(node):
    hints = node.workdir / "hints"
    return sorted(hints.glob("*.hints")) if hints.is_dir() else []


def _delivered_hints(node):
    """Hints this node says it delivered, from its log lines "delivered N hints to ..."."""
    text = "".join(p.read_text(errors="replace") for p in sorted(node.workdir.glob("node-output-*.log")))
    return sum(int(m) for m in re.findall(r"delivered (\d+) hints to", text))


def _stress_through_a_kill(nodes):
    """A QUORUM write load from bin/charybdis-stress through all three nodes while the third is killed with SIGKILL
    and restarted. Afterwards: the only failed writes are the requests that were in flight on the killed node's
    connections (each stress thread has one in flight), the other nodes delivered the hints they kept for it (it
    has every row at ONE, asked alone), and every row reads at ALL."""
    import os

    keyspace = unique_name("stress_hints")
    hosts = ",".join(f"{n.host}:{n.port}" for n in nodes)
    population = ["-pop", f"seq=1..{STRESS_OPS}", "-schema", "replication(factor=3)", f"keyspace={keyspace}"]
    delivered_before = sum(_delivered_hints(n) for n in nodes[:2])
    env = dict(os.environ, CHARYBDIS_STRESS_HEAP="512M")
    load = subprocess.Popen(_stress_command("write", f"n={STRESS_OPS}", "cl=QUORUM", "no-warmup", *population,
                                            "-rate", f"threads={STRESS_THREADS}", f"throttle={STRESS_RATE}/s",
                                            "-errors", "retries=0", "ignore", "-node", hosts),
                            cwd=REPO, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True)
    lines = []
    progress = threading.Event()

    def read_output():
        for line in load.stdout:
            lines.append(line)
            m = re.match(r"^\w+,\s+(\d+),", line)
            if m and int(m.group(1)) >= STRESS_OPS // 6:
                progress.set()

    reader = threading.Thread(target=read_output, daemon=True)
    reader.start()
    try:
        assert progress.wait(120), "the stress load did not get going:\n" + "".join(lines[-60:])
        nodes[2].kill()
        time.sleep(5)
        nodes[2].start()
        load.wait(timeout=300)
    finally:
        if load.poll() is None:
            load.kill()
        reader.join(10)
    output = "".join(lines)
    assert load.returncode == 0, f"charybdis-stress write exited with {load.returncode}:\n{output[-6000:]}"
    total, write_errors = _stress_results(output)
    assert total + write_errors == STRESS_OPS  # a failed write counts as an error, not as a partition written
    assert write_errors <= STRESS_THREADS, output[-6000:]

    # the hints kept by the two survivors reach the restarted node and their files are deleted
    deadline = time.monotonic() + 120
    while _hint_files(nodes[0]) or _hint_files(nodes[1]):
        assert time.monotonic() < deadline, f"hints still held: {_hint_files(nodes[0]) + _hint_files(nodes[1])}"
        time.sleep(1)
    assert sum(_delivered_hints(n) for n in nodes[:2]) > delivered_before

    # the restarted node has the rows by itself: read at ONE through it alone (no read repair at ONE); a row may be
    # missing only where a write failed
    read_one = _run_stress("read", f"n={STRESS_OPS}", "cl=ONE", "no-warmup", *population, "-rate", "threads=8",
                           "-errors", "retries=0", "ignore", "-node", f"{nodes[2].host}:{nodes[2].port}", "whitelist")
    assert _stress_results(read_one)[1] <= write_errors, read_one[-4000:]
    read_all = _run_stress("read", f"n={STRESS_OPS}", "cl=ALL", "no-warmup", *population, "-rate", "threads=8",
                           "-errors", "retries=0", "ignore", "-node", hosts)
    assert _stress_results(read_all)[1] <= write_errors, read_all[-4000:]


def test_three_processes_form_a_ring_route_by_token_and_replicate(node_factory):
    from cassandra import ConsistencyLevel, Unavailable, WriteTimeout
    from cassandra.query import SimpleStatement

    nodes = _cluster_nodes(node_factory)
    for n in nodes:  # one after the other: each start returns once the node has joined
        n.start()

    cluster, session = _session(nodes[0])
    try:
        hosts = cluster.metadata.all_hosts()
        assert sorted(h.address for h in hosts) == ["127.0.0.1", "127.0.0.2", "127.0.0.3"]
        assert all(h.datacenter == "datacenter1" for h in hosts)
        peers = session.execute("SELECT peer, native_port, tokens FROM system.peers_v2").all()
        assert len(peers) == 2
        assert all(len(p.tokens) == 16 for p in peers)

        # replication factor 1: each key lives on one node, and the driver sends each request there
        ks1 = unique_name("rf1")
        session.execute(f"CREATE KEYSPACE {ks1} WITH replication = "
                        "{'class': 'SimpleStrategy', 'replication_factor': 1}")
        session.execute(f"CREATE TABLE {ks1}.t (k int PRIMARY KEY, v text)")
        assert cluster.control_connection.wait_for_schema_agreement()
        insert1 = session.prepare(f"INSERT INTO {ks1}.t (k, v) VALUES (?, ?)")
        owners = set()
        for k in range(60):
            rs = session.execute(insert1, (k, f"v{k}"))
            replicas = cluster.metadata.get_replicas(ks1, insert1.bind((k, "")).routing_key)
            coordinator = rs.response_future.coordinator_host
            coordinator = getattr(coordinator, "address", None) or str(coordinator).split(":")[0]
            assert [h.address for h in replicas] == [coordinator]
            owners.add(replicas[0].address)
        assert len(owners) == 3  # the keys spread over the ring
        select1 = session.prepare(f"SELECT v FROM {ks1}.t WHERE k = ?")
        for k in range(60):
            assert session.execute(select1, (k,)).one().v == f"v{k}"

        # replication factor 3 at QUORUM: every node holds every row
        ks3 = unique_name("rf3")
        session.execute(f"CREATE KEYSPACE {ks3} WITH replication = "
                        "{'class': 'SimpleStrategy', 'replication_factor': 3}")
        session.execute(f"CREATE TABLE {ks3}.t (k int PRIMARY KEY, v text)")
        insert3 = session.prepare(f"INSERT INTO {ks3}.t (k, v) VALUES (?, ?)")
        insert3.consistency_level = ConsistencyLevel.QUORUM
        for k in range(100):
            session.execute(insert3, (k, f"v{k}"))

        # one node killed: QUORUM still succeeds, ALL cannot
        nodes[2].kill()
        acknowledged = []
        for k in range(100, 160):
            session.execute(insert3, (k, f"v{k}"))
            acknowledged.append(k)
        all_stmt = SimpleStatement(f"INSERT INTO {ks3}.t (k, v) VALUES (999, 'x')",
                                   consistency_level=ConsistencyLevel.ALL)
        with pytest.raises((WriteTimeout, Unavailable)):
            session.execute(all_stmt)
    finally:
        cluster.shutdown()

    # the killed node comes back (it rejoins from its own metadata log); the hints the others kept bring it the rows
    # it missed, and every acknowledged row is readable at ALL
    nodes[2].start()
    _await_rows_at_one(nodes[2], ks3, {k: f"v{k}" for k in acknowledged})
    c, s = _session(nodes[0])
    try:
        select_all = s.prepare(f"SELECT v FROM {ks3}.t WHERE k = ?")
        select_all.consistency_level = ConsistencyLevel.ALL
        for k in list(range(100)) + acknowledged:
            row = _until_available(lambda: s.execute(select_all, (k,)).one())
            assert row is not None and row.v == f"v{k}", k
    finally:
        c.shutdown()

    _stress_through_a_kill(nodes)


def test_a_node_killed_during_its_bootstrap_bootstraps_again_when_restarted(node_factory):
    """A third node joins a two-node cluster and streams its ranges (slowly: the sources' stream_throughput_outbound
    is 64 KiB/s); it is killed with SIGKILL in the middle of that. Restarted, it must not rejoin as NORMAL with the
    half it had: it joins as JOINING again and streams its ranges anew, so it then holds every row it replicates,
    read at ONE through it alone (nothing is written meanwhile: no hint or read repair can bring the rows)."""
    from cassandra import ConsistencyLevel
    from cassandra.concurrent import execute_concurrent_with_args

    from conftest import NodeStartError

    nodes = _cluster_nodes(node_factory)
    for n in nodes:
        n.extra_args.append("-Dcharybdis.stream_throughput_outbound=64KiB/s")
    nodes[0].start()
    nodes[1].start()
    ks = unique_name("boot")
    value = "x" * 1000
    cluster, session = _session(nodes[0])
    try:
        session.execute(f"CREATE KEYSPACE {ks} WITH replication = "
                        "{'class': 'SimpleStrategy', 'replication_factor': 2}")
        session.execute(f"CREATE TABLE {ks}.t (k int PRIMARY KEY, v text)")
        assert cluster.control_connection.wait_for_schema_agreement()
        insert = session.prepare(f"INSERT INTO {ks}.t (k, v) VALUES (?, ?)")
        insert.consistency_level = ConsistencyLevel.ALL
        results = execute_concurrent_with_args(session, insert, [(k, f"{k}{value}") for k in range(2000)],
                                               concurrency=32)
        assert all(ok for ok, _ in results)
    finally:
        cluster.shutdown()

    joining = nodes[2]
    failures = []

    def start_joining():
        try:
            joining.start(timeout=240)
        except NodeStartError as e:  # expected: killed before it answers CQL
            failures.append(e)

    starter = threading.Thread(target=start_joining, daemon=True)
    starter.start()
    deadline = time.monotonic() + 120
    log = joining.workdir / "node-output-1.log"
    while "joined cluster metadata group" not in (log.read_text(errors="replace") if log.exists() else ""):
        assert time.monotonic() < deadline, f"the third node never joined the metadata group:\n{joining.log_tail()}"
        time.sleep(0.2)
    time.sleep(3)  # streaming at 128 KiB/s from two sources: about 10 s for its 1.3 MB
    joining.kill()
    starter.join(timeout=60)
    markers = list(joining.workdir.rglob("cluster-bootstrap-in-progress"))
    assert markers, "the kill came after the bootstrap finished: the test proves nothing (streaming was too fast)"

    joining.start(timeout=240)  # answers CQL once its second bootstrap has finished
    cluster, session = _session(nodes[0])
    try:
        mine = {}
        probe = session.prepare(f"SELECT v FROM {ks}.t WHERE k = ?")
        for k in range(2000):
            replicas = cluster.metadata.get_replicas(ks, probe.bind((k,)).routing_key)
            if "127.0.0.3" in [h.address for h in replicas]:
                mine[k] = f"{k}{value}"
    finally:
        cluster.shutdown()
    assert len(mine) > 500, len(mine)
    _await_rows_at_one(joining, ks, mine, seconds=30)
    assert "streams its ranges again" in (joining.workdir / "node-output-2.log").read_text(errors="replace")
    assert not list(joining.workdir.rglob("cluster-bootstrap-in-progress"))
