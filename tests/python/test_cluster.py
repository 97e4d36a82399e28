"""Three Charybdis processes form a cluster through their seeds, and real drivers use it as a Cassandra ring.

Nodes listen on 127.0.0.1-3 (their own free ports). The first two are the seeds; the first forms the cluster's
metadata group and the others join it. Checked with the Python driver: the ring it discovers (system.peers_v2),
token-aware routing to the replica of each key, schema agreement, replication at QUORUM, and that QUORUM writes
go on while one node is killed with SIGKILL, and that once it is back every acknowledged row reads at ALL.
"""

import pytest

from conftest import NodeProcess, free_ports, unique_name


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

    # the killed node comes back (it rejoins from its own metadata log); every acknowledged row is readable at ALL
    # (the reads repair what it missed while it was down)
    nodes[2].start()
    c, s = _session(nodes[0])
    try:
        select_all = s.prepare(f"SELECT v FROM {ks3}.t WHERE k = ?")
        select_all.consistency_level = ConsistencyLevel.ALL
        for k in list(range(100)) + acknowledged:
            row = _until_available(lambda: s.execute(select_all, (k,)).one())
            assert row is not None and row.v == f"v{k}", k
    finally:
        c.shutdown()
