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
