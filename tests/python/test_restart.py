"""Durability across restarts of a node started by bin/charybdis: acknowledged writes and the schema survive."""

import pytest
from cassandra.concurrent import execute_concurrent_with_args

from conftest import connect

KS = "durable"
ROWS = 500


def write_workload(session):
    session.execute(f"CREATE KEYSPACE {KS} WITH replication = {{'class': 'SimpleStrategy', 'replication_factor': 1}}")
    session.execute(f"CREATE TABLE {KS}.t (pk int, ck int, v text, PRIMARY KEY (pk, ck))")
    session.execute(f"CREATE TABLE {KS}.other (id text PRIMARY KEY, n bigint)")
    insert = session.prepare(f"INSERT INTO {KS}.t (pk, ck, v) VALUES (?, ?, ?)")
    results = execute_concurrent_with_args(session, insert, [(i % 10, i, f"value-{i}") for i in range(ROWS)],
                                           concurrency=20, raise_on_first_error=True)
    assert all(r.success for r in results)  # every one of these was acknowledged
    session.execute(f"UPDATE {KS}.t SET v = 'changed' WHERE pk = 0 AND ck = 0")
    session.execute(f"DELETE FROM {KS}.t WHERE pk = 1 AND ck = 1")
    session.execute(f"DELETE FROM {KS}.t WHERE pk = 2")
    session.execute(f"INSERT INTO {KS}.other (id, n) VALUES ('x', 42)")


def expected_rows():
    rows = {(i % 10, i): f"value-{i}" for i in range(ROWS)}
    rows[(0, 0)] = "changed"
    del rows[(1, 1)]
    return {k: v for k, v in rows.items() if k[0] != 2}


def check_everything_is_there(session):
    session.cluster.refresh_schema_metadata(max_schema_agreement_wait=30)
    keyspace = session.cluster.metadata.keyspaces.get(KS)
    assert keyspace is not None, "keyspace lost"
    assert set(keyspace.tables) == {"t", "other"}
    t = keyspace.tables["t"]
    assert [c.name for c in t.partition_key] == ["pk"] and [c.name for c in t.clustering_key] == ["ck"]
    assert {n: c.cql_type for n, c in t.columns.items()} == {"pk": "int", "ck": "int", "v": "text"}

    rows = {(r.pk, r.ck): r.v for r in session.execute(f"SELECT pk, ck, v FROM {KS}.t")}
    expected = expected_rows()
    missing = sorted(set(expected) - set(rows))
    assert not missing, f"{len(missing)} acknowledged rows lost, e.g. {missing[:5]}"
    assert rows == expected
    assert session.execute(f"SELECT n FROM {KS}.other WHERE id = 'x'").one().n == 42


@pytest.mark.parametrize("sync, stop", [("periodic", "sigterm"), ("batch", "sigkill")],
                         ids=["periodic-clean-shutdown", "batch-crash"])
def test_acknowledged_writes_and_schema_survive_a_restart(node_factory, sync, stop):
    node = node_factory(extra_args=[f"-Dcharybdis.commitlog_sync={sync}"]).start()
    with connect(node) as session:
        write_workload(session)

    if stop == "sigterm":
        code, clean = node.stop()
        assert clean, "the node did not stop within 60 s of SIGTERM"
        assert code in (0, 143), f"exit code {code} after SIGTERM"
        assert "Charybdis stopped cleanly" in node.log_tail(lines=50)
    else:
        node.kill()  # batch mode acknowledged each write only after its fsync

    node.start()
    with connect(node) as session:
        check_everything_is_there(session)
        session.execute(f"INSERT INTO {KS}.other (id, n) VALUES ('after', 1)")

    # and once more, so what was replayed is not lost by the next restart
    code, clean = node.stop()
    assert clean
    node.start()
    with connect(node) as session:
        check_everything_is_there(session)
        assert session.execute(f"SELECT n FROM {KS}.other WHERE id = 'after'").one().n == 1
