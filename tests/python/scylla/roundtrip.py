"""ScyllaDB's Python driver (scylla-driver) against a Charybdis node: run with the .venv-scylla interpreter.

    python roundtrip.py HOST PORT SHARD_AWARE_PORT SHARDS

The driver sees ScyllaDB's protocol extension in SUPPORTED, so it behaves as with ScyllaDB: its control connection
sends its schema queries with `USING TIMEOUT <n>ms`, and it opens one connection per shard through the shard-aware
port. Exits non-zero (with a traceback) on the first failed check.
"""

import sys
import uuid

from cassandra import ReadTimeout, WriteTimeout, InvalidRequest
from cassandra.cluster import EXEC_PROFILE_DEFAULT, Cluster, ExecutionProfile
from cassandra.concurrent import execute_concurrent_with_args
from cassandra.policies import TokenAwarePolicy, RoundRobinPolicy
from cassandra.query import SimpleStatement
from cassandra.util import Duration


def main(host, port, shard_aware_port, shards):
    profile = ExecutionProfile(load_balancing_policy=TokenAwarePolicy(RoundRobinPolicy()), request_timeout=30)
    cluster = Cluster([host], port=port, execution_profiles={EXEC_PROFILE_DEFAULT: profile},
                      connect_timeout=30, control_connection_timeout=30)
    session = cluster.connect()
    try:
        run(cluster, session, host, shard_aware_port, shards)
    finally:
        cluster.shutdown()
    print("scylla-driver round trip: ok")


def run(cluster, session, host, shard_aware_port, shards):
    # the driver took the node for ScyllaDB: sharding info from SUPPORTED, its schema queries carry USING TIMEOUT
    control = cluster.control_connection._connection
    info = control.features.sharding_info
    assert info is not None and info.shards_count == shards, info
    assert info.shard_aware_port == shard_aware_port, (info.shard_aware_port, shard_aware_port)
    assert cluster.control_connection._metadata_request_timeout is not None

    ks = f"scylla_{uuid.uuid4().hex[:10]}"
    session.execute(f"CREATE KEYSPACE {ks} WITH replication = {{'class': 'SimpleStrategy', 'replication_factor': 1}}")
    session.execute(f"CREATE TABLE {ks}.t (pk int, ck int, v text, PRIMARY KEY (pk, ck))")
    session.set_keyspace(ks)

    # prepared writes, with ScyllaDB's USING TIMEOUT as a literal and as a bind marker
    insert = session.prepare("INSERT INTO t (pk, ck, v) VALUES (?, ?, ?) USING TIMEOUT 10s")
    assert insert.routing_key_indexes == [0], insert.routing_key_indexes
    results = execute_concurrent_with_args(session, insert, [(p, c, f"v{p}.{c}") for p in range(50) for c in range(20)],
                                           concurrency=50, raise_on_first_error=True)
    assert all(r.success for r in results)
    marker = session.prepare("UPDATE t USING TIMEOUT ? AND TTL 3600 SET v = ? WHERE pk = ? AND ck = ?")
    assert [c.name for c in marker.column_metadata] == ["[timeout]", "v", "pk", "ck"], marker.column_metadata
    session.execute(marker, (Duration(0, 0, 5_000_000_000), "updated", 1, 1))
    row = session.execute("SELECT v, ttl(v) FROM t WHERE pk = 1 AND ck = 1 USING TIMEOUT 2s").one()
    assert row.v == "updated" and 3500 < row.ttl_v <= 3600, row

    # reads: one partition, then paging through the table
    rows = list(session.execute(session.prepare("SELECT ck, v FROM t WHERE pk = ? USING TIMEOUT 5000ms"), (7,)))
    assert [(r.ck, r.v) for r in rows] == [(c, f"v7.{c}") for c in range(20)]
    result = session.execute(SimpleStatement("SELECT pk, ck FROM t USING TIMEOUT 30s", fetch_size=100))
    pages = [list(result.current_rows)]
    while result.has_more_pages:
        result.fetch_next_page()
        pages.append(list(result.current_rows))
    assert all(len(p) == 100 for p in pages[:-1]) and sum(len(p) for p in pages) == 1000
    assert {(r.pk, r.ck) for p in pages for r in p} == {(p, c) for p in range(50) for c in range(20)}

    # a statement that cannot finish in its timeout answers a timeout error; bad timeouts are invalid requests
    try:
        session.execute("SELECT * FROM t USING TIMEOUT 0ms")
        raise AssertionError("expected a read timeout")
    except ReadTimeout:
        pass
    try:
        session.execute("INSERT INTO t (pk, ck, v) VALUES (1, 1, 'x') USING TIMEOUT 0ms AND TTL 10")
        raise AssertionError("expected a write timeout")
    except WriteTimeout:
        pass
    for bad, message in (("1d", "days/months"), ("10us", "finer than milliseconds")):
        try:
            session.execute(f"SELECT * FROM t USING TIMEOUT {bad}")
            raise AssertionError(f"expected an invalid request for {bad}")
        except InvalidRequest as e:
            assert message in str(e), e
    session.execute("BEGIN BATCH USING TIMEOUT 5s INSERT INTO t (pk, ck, v) VALUES (100, 1, 'b'); "
                    "INSERT INTO t (pk, ck, v) VALUES (100, 2, 'b'); APPLY BATCH")
    assert len(list(session.execute("SELECT * FROM t WHERE pk = 100"))) == 2
    session.execute("DELETE FROM t USING TIMESTAMP 9999999999999999 AND TIMEOUT 5s WHERE pk = 100")
    assert session.execute("SELECT * FROM t WHERE pk = 100").one() is None

    # schema metadata as the driver builds it from system_schema (and ScyllaDB's own tables)
    cluster.refresh_schema_metadata(max_schema_agreement_wait=30)
    table = cluster.metadata.keyspaces[ks].tables["t"]
    assert [c.name for c in table.partition_key] == ["pk"] and [c.name for c in table.clustering_key] == ["ck"]
    assert f"CREATE TABLE {ks}.t" in table.export_as_string()
    scylla_tables = {(r.keyspace_name, r.table_name): r for r in
                     session.execute(f"SELECT * FROM system_schema.scylla_tables WHERE keyspace_name = '{ks}'")}
    assert list(scylla_tables) == [(ks, "t")] and scylla_tables[(ks, "t")].partitioner is None
    assert scylla_tables[(ks, "t")].version is not None
    assert list(session.execute("SELECT * FROM system_schema.scylla_keyspaces")) == []

    # shard awareness: one connection per shard, each on the shard it asked for through the shard-aware port
    host = next(iter(cluster.metadata.all_hosts()))
    assert host.sharding_info is not None and host.sharding_info.shards_count == shards
    pool = session._pools[host]
    for _ in range(50):
        if len(pool._connections) == shards:
            break
        import time
        time.sleep(0.2)
    assert sorted(pool._connections) == list(range(shards)), sorted(pool._connections)
    for shard_id, conn in pool._connections.items():
        assert conn.features.shard_id == shard_id, (shard_id, conn.features.shard_id)
    # token-aware requests go to the connection of the key's shard (the driver computes it from the token)
    for pk in range(50):
        token = cluster.metadata.token_map.token_class.from_key(insert.bind((pk, 0, "")).routing_key)
        shard = host.sharding_info.shard_id_from_token(token.value)
        assert 0 <= shard < shards
        assert session.execute(insert.bind((pk, 0, f"v{pk}.0"))).response_future._connection.features.shard_id \
            == shard


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]))
