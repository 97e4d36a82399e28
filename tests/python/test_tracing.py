"""Query tracing (system_traces) through the Python driver, cqlsh's TRACING ON, and Apache Cassandra 5.0.6's
nodetool settraceprobability / gettraceprobability."""

import time

from conftest import connect, unique_name
from test_cqlsh import cqlsh
from test_nodetool import Nodetool, _wait_for_port, nodetool_env  # noqa: F401 (the fixture)


def _schema(session):
    ks = unique_name("trace")
    session.execute(f"CREATE KEYSPACE {ks} WITH replication = {{'class': 'SimpleStrategy', 'replication_factor': 1}}")
    session.execute(f"CREATE TABLE {ks}.t (pk int, ck int, v text, PRIMARY KEY (pk, ck))")
    for ck in range(3):
        session.execute(f"INSERT INTO {ks}.t (pk, ck, v) VALUES (1, %s, 'x')", (ck,))
    return ks


def test_python_driver_reads_the_trace_of_a_query(node):
    with connect(node) as session:
        ks = _schema(session)
        result = session.execute(f"SELECT * FROM {ks}.t WHERE pk = 1", trace=True)
        assert len(list(result)) == 3
        trace = result.get_query_trace(max_wait_sec=10)
        assert trace.request_type == "Execute CQL3 query"
        assert trace.duration.total_seconds() > 0
        assert trace.parameters["query"] == f"SELECT * FROM {ks}.t WHERE pk = 1"
        assert str(trace.coordinator) == node.host
        activities = [e.description for e in trace.events]
        assert f"Parsing SELECT * FROM {ks}.t WHERE pk = 1" in activities, activities
        assert "Executing single-partition query on t" in activities, activities
        assert "Read 3 live rows and 0 tombstone cells" in activities, activities
        assert all(e.source_elapsed is not None and e.thread_name for e in trace.events)

        prepared = session.prepare(f"INSERT INTO {ks}.t (pk, ck, v) VALUES (?, ?, ?)")
        write = session.execute(prepared, (2, 1, "y"), trace=True).get_query_trace(max_wait_sec=10)
        assert write.request_type == "Execute CQL3 prepared query"
        write_steps = [e.description for e in write.events]
        assert write_steps[-3:] == ["Determining replicas for mutation", "Appending to commitlog",
                                    "Adding to t memtable"], write_steps


def test_prepared_statements_record_their_bound_values_as_cassandra_does(node):
    """The bound_var_<i>_<name> parameters, compared with what Cassandra 5.0.6 recorded for the same values."""
    import datetime
    import decimal
    import uuid
    from cassandra.util import Date, Time
    with connect(node) as session:
        ks = _schema(session)
        session.execute(f"CREATE TABLE {ks}.all (k int PRIMARY KEY, t text, ts timestamp, u uuid, b blob, l list<int>, "
                        "m map<text, int>, d double, bo boolean, i inet, dec decimal, da date, ti time)")
        insert = session.prepare(f"INSERT INTO {ks}.all (k, t, ts, u, b, l, m, d, bo, i, dec, da, ti) "
                                 "VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)")
        trace = session.execute(insert, (1, "it's", datetime.datetime(2024, 1, 2, 3, 4, 5, 678000),
                                         uuid.UUID("12345678-1234-5678-1234-567812345678"), b"\x01\xff", [1, 2],
                                         {"a": 1}, 1.5, True, "10.0.0.1", decimal.Decimal("1.25"), Date(19000),
                                         Time(3723000000000)), trace=True).get_query_trace(max_wait_sec=10)
        recorded_from_cassandra = {
            "bound_var_0_k": "1", "bound_var_1_t": "'it''s'", "bound_var_2_ts": "'2024-01-02T03:04:05.678Z'",
            "bound_var_3_u": "12345678-1234-5678-1234-567812345678", "bound_var_4_b": "0x01ff",
            "bound_var_5_l": "[1, 2]", "bound_var_6_m": "{'a': 1}", "bound_var_7_d": "1.5", "bound_var_8_bo": "true",
            "bound_var_9_i": "'10.0.0.1'", "bound_var_10_dec": "1.25", "bound_var_11_da": "'2022-01-08'",
            "bound_var_12_ti": "'01:02:03.000000000'", "consistency_level": "LOCAL_ONE", "page_size": "5000",
            "serial_consistency_level": "SERIAL",
            "query": f"INSERT INTO {ks}.all (k, t, ts, u, b, l, m, d, bo, i, dec, da, ti) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)",
        }
        assert dict(trace.parameters) == recorded_from_cassandra


def test_cqlsh_tracing_on_prints_the_trace(node, tmp_path):
    with connect(node) as session:
        ks = _schema(session)
    out = cqlsh(node, f"TRACING ON; SELECT * FROM {ks}.t WHERE pk = 1;", tmp_path)
    assert "TRACING set to ON" in out, out
    assert "(3 rows)" in out, out
    assert "Tracing session: " in out, out
    assert "Execute CQL3 query" in out, out
    assert f"Parsing SELECT * FROM {ks}.t WHERE pk = 1;" in out, out
    assert "Executing single-partition query on t" in out, out
    assert "Request complete" in out, out


def test_nodetool_trace_probability_traces_requests_nobody_asked_to_trace(nodetool_env, node_factory):  # noqa: F811
    node = node_factory("tracing").start()
    _wait_for_port(node.host, node.jmx_port)
    nodetool = Nodetool(nodetool_env, node)
    assert "Current trace probability: 0.0" in nodetool("gettraceprobability")
    with connect(node) as session:
        ks = _schema(session)
        assert session.execute("SELECT count(*) FROM system_traces.sessions").one()[0] == 0
        nodetool("settraceprobability", "1")
        assert "Current trace probability: 1.0" in nodetool("gettraceprobability")
        for _ in range(5):
            session.execute(f"SELECT * FROM {ks}.t WHERE pk = 7")
        nodetool("settraceprobability", "0")
        assert "Current trace probability: 0.0" in nodetool("gettraceprobability")
        deadline = time.monotonic() + 10
        queries = []
        while time.monotonic() < deadline:
            rows = list(session.execute("SELECT parameters FROM system_traces.sessions"))
            queries = [r.parameters.get("query") for r in rows if r.parameters]
            if queries.count(f"SELECT * FROM {ks}.t WHERE pk = 7") >= 5:
                break
            time.sleep(0.1)
        assert queries.count(f"SELECT * FROM {ks}.t WHERE pk = 7") >= 5, queries
        events = list(session.execute("SELECT activity FROM system_traces.events"))
        assert any(e.activity == "Executing single-partition query on t" for e in events)
