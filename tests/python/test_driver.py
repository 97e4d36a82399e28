"""The Python cassandra-driver against a node started by bin/charybdis: schema, writes, reads, paging."""

import calendar
import uuid
from decimal import Decimal

import pytest
from cassandra.concurrent import execute_concurrent_with_args
from cassandra.query import BatchStatement, BatchType, SimpleStatement

from conftest import connect, unique_name

REPLICATION = "{'class': 'SimpleStrategy', 'replication_factor': 1}"


def millis(timestamp):
    """A driver-decoded timestamp (naive datetime in UTC) as milliseconds since the epoch."""
    return calendar.timegm(timestamp.timetuple()) * 1000 + timestamp.microsecond // 1000


def create_keyspace(session, prefix):
    ks = unique_name(prefix)
    session.execute(f"CREATE KEYSPACE {ks} WITH replication = {REPLICATION}")
    return ks


@pytest.mark.parametrize("protocol_version", [None, 4], ids=["negotiated", "v4"])
def test_round_trip_with_simple_prepared_and_batched_statements(node, protocol_version):
    with connect(node, protocol_version=protocol_version) as session:
        if protocol_version is None:
            assert session.cluster.protocol_version == 5
        ks = create_keyspace(session, "rt")
        session.execute(f"CREATE TABLE {ks}.t (pk int, ck text, v text, n bigint, PRIMARY KEY (pk, ck))")
        session.set_keyspace(ks)

        # simple statements: literals, then values bound by the driver
        session.execute("INSERT INTO t (pk, ck, v, n) VALUES (1, 'a', 'literal', 10)")
        session.execute("INSERT INTO t (pk, ck, v, n) VALUES (%s, %s, %s, %s)", (1, "b", "bound", 20))
        # prepared: positional and named markers
        positional = session.prepare("INSERT INTO t (pk, ck, v, n) VALUES (?, ?, ?, ?)")
        session.execute(positional, (1, "c", "prepared", 30))
        named = session.prepare("INSERT INTO t (pk, ck, v, n) VALUES (:pk, :ck, :v, :n)")
        session.execute(named, {"pk": 1, "ck": "d", "v": "named", "n": 40})
        # a logged batch mixing prepared and simple statements, and an unlogged one in CQL text
        batch = BatchStatement(batch_type=BatchType.LOGGED)
        batch.add(positional, (2, "a", "batched", 50))
        batch.add(positional, (2, "b", "batched", 60))
        batch.add(SimpleStatement("INSERT INTO t (pk, ck, v, n) VALUES (%s, %s, %s, %s)"), (3, "a", "batched", 70))
        session.execute(batch)
        session.execute("BEGIN UNLOGGED BATCH "
                        "INSERT INTO t (pk, ck, v, n) VALUES (3, 'b', 'text batch', 80); "
                        "INSERT INTO t (pk, ck, v, n) VALUES (3, 'c', 'text batch', 90); "
                        "APPLY BATCH")

        rows = list(session.execute("SELECT ck, v, n FROM t WHERE pk = 1"))
        assert [(r.ck, r.v, r.n) for r in rows] == [
            ("a", "literal", 10), ("b", "bound", 20), ("c", "prepared", 30), ("d", "named", 40)]

        select_one = session.prepare("SELECT v, n FROM t WHERE pk = ? AND ck = ?")
        row = session.execute(select_one, (2, "b")).one()
        assert (row.v, row.n) == ("batched", 60)
        assert session.execute(select_one, (2, "zzz")).one() is None

        all_rows = {(r.pk, r.ck): r.n for r in session.execute("SELECT pk, ck, n FROM t")}
        assert all_rows == {(1, "a"): 10, (1, "b"): 20, (1, "c"): 30, (1, "d"): 40,
                            (2, "a"): 50, (2, "b"): 60, (3, "a"): 70, (3, "b"): 80, (3, "c"): 90}

        # update and delete are seen by the next read
        session.execute("UPDATE t SET v = 'updated' WHERE pk = 1 AND ck = 'a'")
        session.execute("DELETE FROM t WHERE pk = 1 AND ck = 'b'")
        assert [(r.ck, r.v) for r in session.execute("SELECT ck, v FROM t WHERE pk = 1")] == [
            ("a", "updated"), ("c", "prepared"), ("d", "named")]


def test_composite_keys_clustering_order_and_types(node):
    with connect(node) as session:
        ks = create_keyspace(session, "types")
        session.execute(f"""
            CREATE TABLE {ks}.readings (
                sensor text, day int, ts timestamp, seq int,
                value double, ok boolean, id uuid, raw blob, amount decimal, tags set<text>, attrs map<text, int>,
                PRIMARY KEY ((sensor, day), ts, seq)
            ) WITH CLUSTERING ORDER BY (ts DESC, seq ASC)""")
        insert = session.prepare(
            f"INSERT INTO {ks}.readings (sensor, day, ts, seq, value, ok, id, raw, amount, tags, attrs) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")
        ident = uuid.uuid4()
        for ts in (1000, 3000, 2000):
            for seq in (2, 1):
                session.execute(insert, ("s1", 20240101, ts, seq, ts / 7, seq == 1, ident, b"\x00\xff",
                                         Decimal("12.345"), {"x", "y"}, {"k": seq}))
        session.execute(insert, ("s1", 20240102, 5000, 1, 0.0, False, ident, b"", Decimal("0"), set(), {}))

        rows = list(session.execute(
            f"SELECT ts, seq, value, ok, id, raw, amount, tags, attrs FROM {ks}.readings "
            "WHERE sensor = 's1' AND day = 20240101"))
        assert [(millis(r.ts), r.seq) for r in rows] == [
            (3000, 1), (3000, 2), (2000, 1), (2000, 2), (1000, 1), (1000, 2)]
        first = rows[0]
        assert first.value == pytest.approx(3000 / 7)
        assert first.ok is True and first.id == ident and first.raw == b"\x00\xff"
        assert first.amount == Decimal("12.345") and first.tags == {"x", "y"} and first.attrs == {"k": 1}

        ranged = list(session.execute(
            f"SELECT ts, seq FROM {ks}.readings WHERE sensor = 's1' AND day = 20240101 AND ts >= 2000 AND ts < 3000"))
        assert [(millis(r.ts), r.seq) for r in ranged] == [(2000, 1), (2000, 2)]


def test_paging_through_one_partition(node):
    with connect(node) as session:
        ks = create_keyspace(session, "paging")
        session.execute(f"CREATE TABLE {ks}.t (pk int, ck int, v text, PRIMARY KEY (pk, ck))")
        insert = session.prepare(f"INSERT INTO {ks}.t (pk, ck, v) VALUES (?, ?, ?)")
        results = execute_concurrent_with_args(session, insert, [(7, i, f"v{i}") for i in range(1000)],
                                               concurrency=50, raise_on_first_error=True)
        assert all(r.success for r in results)

        result = session.execute(SimpleStatement(f"SELECT ck, v FROM {ks}.t WHERE pk = 7", fetch_size=100))
        pages = [list(result.current_rows)]
        while result.has_more_pages:
            result.fetch_next_page()
            pages.append(list(result.current_rows))
        sizes = [len(p) for p in pages]
        assert sizes[:10] == [100] * 10 and sum(sizes) == 1000, sizes
        assert [r.ck for page in pages for r in page] == list(range(1000))
        assert all(r.v == f"v{r.ck}" for page in pages for r in page)


def test_paging_across_partitions_and_resuming_on_another_connection(node):
    with connect(node) as session:
        ks = create_keyspace(session, "scan")
        session.execute(f"CREATE TABLE {ks}.t (pk int, ck int, v int, PRIMARY KEY (pk, ck))")
        insert = session.prepare(f"INSERT INTO {ks}.t (pk, ck, v) VALUES (?, ?, ?)")
        execute_concurrent_with_args(session, insert, [(p, c, p * 100 + c) for p in range(100) for c in range(10)],
                                     concurrency=50, raise_on_first_error=True)

        statement = SimpleStatement(f"SELECT pk, ck, v FROM {ks}.t", fetch_size=100)
        seen = [(r.pk, r.ck, r.v) for r in session.execute(statement)]  # the driver fetches every page
        assert len(seen) == 1000
        assert set(seen) == {(p, c, p * 100 + c) for p in range(100) for c in range(10)}

        first = session.execute(statement)
        first_page = list(first.current_rows)
        assert len(first_page) == 100 and first.paging_state is not None
        with connect(node) as other:
            resumed = other.execute(statement, paging_state=first.paging_state)
            second_page = list(resumed.current_rows)
        assert [(r.pk, r.ck) for r in second_page] == [(pk, ck) for pk, ck, _ in seen[100:200]]

        # prepared statements page too
        select = session.prepare(f"SELECT pk, ck FROM {ks}.t WHERE pk IN (1, 2, 3)")
        select.fetch_size = 7
        assert len(list(session.execute(select))) == 30


def test_metadata_describes_the_schema(node):
    with connect(node) as session:
        ks = create_keyspace(session, "meta")
        session.execute(f"CREATE TABLE {ks}.t (a int, b text, c timeuuid, d list<int>, e frozen<map<text, int>>, "
                        "PRIMARY KEY ((a, b), c)) WITH CLUSTERING ORDER BY (c DESC)")
        cluster = session.cluster
        cluster.refresh_schema_metadata(max_schema_agreement_wait=30)
        keyspace = cluster.metadata.keyspaces[ks]
        assert keyspace.replication_strategy.replication_factor_info.full_replicas == 1
        table = keyspace.tables["t"]
        assert [c.name for c in table.partition_key] == ["a", "b"]
        assert [c.name for c in table.clustering_key] == ["c"]
        assert {name: c.cql_type for name, c in table.columns.items()} == {
            "a": "int", "b": "text", "c": "timeuuid", "d": "list<int>", "e": "frozen<map<text, int>>"}
        assert table.columns["c"].is_reversed
        create = table.export_as_string()
        assert f"CREATE TABLE {ks}.t" in create and "PRIMARY KEY ((a, b), c)" in create

        host = next(iter(cluster.metadata.all_hosts()))
        assert host.is_up and host.release_version


def test_errors_come_back_as_cassandra_errors(node):
    from cassandra import InvalidRequest
    from cassandra.protocol import SyntaxException

    with connect(node) as session:
        ks = create_keyspace(session, "errors")
        session.execute(f"CREATE TABLE {ks}.t (pk int PRIMARY KEY, v text)")
        with pytest.raises(SyntaxException):
            session.execute(f"SELEKT * FROM {ks}.t")
        with pytest.raises(InvalidRequest):
            session.execute(f"SELECT * FROM {ks}.no_such_table")
        with pytest.raises(InvalidRequest):
            session.execute(f"INSERT INTO {ks}.t (pk, v) VALUES ('not an int', 'x')")
        # the connection is still usable
        session.execute(f"INSERT INTO {ks}.t (pk, v) VALUES (1, 'x')")
        assert session.execute(f"SELECT v FROM {ks}.t WHERE pk = 1").one().v == "x"


def test_tombstone_thresholds_warn_and_fail_as_cassandra(node):
    """tombstone_warn_threshold and tombstone_failure_threshold (defaults 1000 and 100000): the warning and the
    READ_FAILURE error are worded as Cassandra 5.0.6 words them (its answers for these statements)."""
    from cassandra import ReadFailure
    with connect(node, protocol_version=5) as session:
        ks = create_keyspace(session, "tomb")
        session.execute(f"CREATE TABLE {ks}.t (k int, c int, m map<int, int>, PRIMARY KEY (k, c))")
        keys = ",".join(str(i) for i in range(1100))
        session.execute(f"UPDATE {ks}.t SET m = m - {{{keys}}} WHERE k = 1 AND c = 1")
        future = session.execute_async(f"SELECT * FROM {ks}.t WHERE k = 1")
        assert list(future.result()) == []
        assert future.warnings == [
            f"Read 0 live rows and 1100 tombstone cells for query SELECT * FROM {ks}.t WHERE k = 1 LIMIT 5000 "
            "ALLOW FILTERING; token -4069959284402364209 (see tombstone_warn_threshold)"]

        keys = ",".join(str(i) for i in range(100001))
        session.execute(f"UPDATE {ks}.t SET m = m - {{{keys}}} WHERE k = 6 AND c = 1")
        with pytest.raises(ReadFailure) as failure:
            session.execute(f"SELECT * FROM {ks}.t WHERE k = 6")
        assert "Operation failed - received 0 responses and 1 failures: READ_TOO_MANY_TOMBSTONES from /" \
            in str(failure.value)
        assert failure.value.received_responses == 0
        assert failure.value.required_responses == 1
        assert list(failure.value.error_code_map.values()) == [1]
        # the node keeps serving
        session.execute(f"INSERT INTO {ks}.t (k, c, m) VALUES (7, 1, {{1: 1}})")
        assert session.execute(f"SELECT m FROM {ks}.t WHERE k = 7").one().m == {1: 1}
