"""Prometheus metrics on prometheus_port of a node started by bin/charybdis, parsed with the Prometheus Python
client's own text-format parser (prometheus_client.parser), after a workload through the Python driver.

The names the ScyllaDB Monitoring Stack's dashboards and alert rules query are kept as test data in
node/src/test/resources/metrics/scylla-monitoring-series.txt; every one must be in the scrape.
"""

import socket
import urllib.request

import pytest

from conftest import REPO, connect

SERIES = REPO / "node" / "src" / "test" / "resources" / "metrics" / "scylla-monitoring-series.txt"


def expected_names():
    names = []
    for line in SERIES.read_text().splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            names.append(line)
    return names


def scrape(node):
    from prometheus_client.parser import text_string_to_metric_families

    with urllib.request.urlopen(f"http://{node.host}:{node.prometheus_port}/metrics", timeout=30) as r:
        assert r.status == 200
        text = r.read().decode("utf-8")
    samples = {}
    for family in text_string_to_metric_families(text):
        for s in family.samples:
            samples.setdefault(s.name, []).append(s)
    return samples


def per_shard(samples, name, **labels):
    totals = {}
    for s in samples.get(name, []):
        if all(s.labels.get(k) == v for k, v in labels.items()):
            totals[s.labels["shard"]] = totals.get(s.labels["shard"], 0) + s.value
    return totals


def workload(node, rounds):
    with connect(node, protocol_version=5) as session:
        session.execute("CREATE KEYSPACE IF NOT EXISTS pm WITH replication = "
                        "{'class': 'SimpleStrategy', 'replication_factor': 1}")
        session.execute("CREATE TABLE IF NOT EXISTS pm.t (k int PRIMARY KEY, v text)")
        insert = session.prepare("INSERT INTO pm.t (k, v) VALUES (?, ?)")
        select = session.prepare("SELECT v FROM pm.t WHERE k = ?")
        for i in range(rounds):
            session.execute(insert, (i, f"v{i}"))
            assert session.execute(select, (i,)).one().v == f"v{i}"


def test_metrics_after_a_workload(node_factory):
    node = node_factory("metrics", smp=2).start()
    # The node gives each new connection to the next shard in turn; a driver session opens two (control and pool),
    # so between sessions one idle connection is opened (and held) to move the next session's pool to another shard.
    idle = []
    for _ in range(4):
        workload(node, 100)
        idle.append(socket.create_connection((node.host, node.port), timeout=10))
        samples = scrape(node)
        reads = per_shard(samples, "scylla_storage_proxy_coordinator_read_latency_count")
        if len(reads) == 2 and all(v > 0 for v in reads.values()):
            break
    for s in idle:
        s.close()
    assert set(reads) == {"0", "1"} and all(v > 0 for v in reads.values()), reads

    missing = [n for n in expected_names() if n not in samples]
    assert not missing, f"series missing from /metrics: {missing}"

    for s in samples["scylla_cql_reads"]:
        assert s.labels["instance"] == node.host and s.labels["shard"] in ("0", "1")
    # the shards that served reads have latency histograms: buckets up to +Inf equal to their count
    read_counts = per_shard(samples, "scylla_storage_proxy_coordinator_read_latency_count")
    write_counts = per_shard(samples, "scylla_storage_proxy_coordinator_write_latency_count")
    served = per_shard(samples, "scylla_transport_requests_served")
    for shard in ("0", "1"):
        assert served[shard] > 0
        assert read_counts[shard] > 0, read_counts
        inf = per_shard(samples, "scylla_storage_proxy_coordinator_read_latency_bucket", le="+Inf")[shard]
        assert inf == read_counts[shard]
    assert sum(write_counts.values()) >= 100
    assert sum(per_shard(samples, "scylla_cql_inserts", conditional="no").values()) >= 100
    assert per_shard(samples, "scylla_node_operation_mode") == {"0": 3.0}
    # quantiles of the summary are microseconds: above 1 µs, under a minute
    for s in samples["scylla_storage_proxy_coordinator_write_latency_summary"]:
        assert 0 <= s.value < 60_000_000
    assert sum(per_shard(samples, "scylla_reactor_cpu_busy_ms").values()) > 0
