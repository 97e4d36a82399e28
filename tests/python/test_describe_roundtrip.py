"""cqlsh DESCRIBE of every object kind recreates an identical schema when fed back into an empty node."""

import os
import subprocess

from conftest import connect
from test_cqlsh import cqlsh, cqlsh_executable

SCHEMA = [
    "CREATE KEYSPACE shop WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1} "
    "AND durable_writes = true",
    "CREATE KEYSPACE \"Metrics\" WITH replication = {'class': 'NetworkTopologyStrategy', 'datacenter1': 1}",
    "CREATE TYPE shop.address (street text, city text, zip int)",
    "CREATE TYPE shop.contact (name text, home frozen<address>, phones frozen<list<text>>)",
    "CREATE TABLE shop.customers (id uuid PRIMARY KEY, name text, emails set<text>, prefs map<text, int>, "
    "addr frozen<address>, contact contact, score decimal, joined timestamp, flags list<boolean>, "
    "pt frozen<tuple<int, text>>, v vector<float, 3>) WITH comment = 'customers' AND gc_grace_seconds = 3600",
    "CREATE TABLE shop.orders (customer uuid, day date, at timeuuid, item text, qty smallint, price varint, "
    "note text static, PRIMARY KEY ((customer, day), at, item)) WITH CLUSTERING ORDER BY (at DESC, item ASC) "
    "AND compaction = {'class': 'LeveledCompactionStrategy', 'sstable_size_in_mb': '64'} "
    "AND compression = {'class': 'ZstdCompressor', 'chunk_length_in_kb': '64'} AND default_time_to_live = 86400",
    "CREATE INDEX orders_item ON shop.orders (item)",
    "CREATE INDEX ON shop.customers (keys(prefs))",
    "CREATE TABLE \"Metrics\".\"Samples\" (\"Host\" text, ts bigint, \"Value\" double, tags frozen<map<text, text>>, "
    "PRIMARY KEY (\"Host\", ts)) WITH caching = {'keys': 'NONE', 'rows_per_partition': '10'} "
    "AND bloom_filter_fp_chance = 0.05 AND speculative_retry = '50ms'",
]


def cqlsh_file(node, path, home):
    env = dict(os.environ, HOME=str(home))
    result = subprocess.run(
        [cqlsh_executable(), node.host, str(node.port), "--connect-timeout", "30", "--request-timeout", "30",
         "-f", str(path)],
        env=env, stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0 and "Error" not in result.stderr, result.stdout + result.stderr
    return result.stdout


def schema_text(node, home):
    """DESCRIBE SCHEMA output without cqlsh's version banner (it also prints one against Cassandra 5.0.6)."""
    out = cqlsh(node, "DESCRIBE SCHEMA", home)
    return "\n".join(line for line in out.splitlines() if not line.startswith("WARNING: cqlsh was built"))


def test_describe_schema_recreates_an_identical_schema(node_factory, tmp_path):
    source = node_factory("source").start()
    with connect(source) as session:
        for statement in SCHEMA:
            session.execute(statement)
    described = schema_text(source, tmp_path)
    for expected in ("CREATE KEYSPACE shop", 'CREATE KEYSPACE "Metrics"', "CREATE TYPE shop.address",
                     "CREATE TYPE shop.contact", "CREATE TABLE shop.customers", "CREATE TABLE shop.orders",
                     "CREATE INDEX orders_item ON shop.orders", 'CREATE TABLE "Metrics"."Samples"'):
        assert expected in described, described
    per_object = {
        "DESCRIBE KEYSPACE shop": "CREATE KEYSPACE shop",
        "DESCRIBE TYPE shop.contact": "CREATE TYPE shop.contact",
        "DESCRIBE TABLE shop.orders": "CREATE TABLE shop.orders",
        "DESCRIBE INDEX shop.orders_item": "CREATE INDEX orders_item",
    }
    for statement, fragment in per_object.items():
        assert fragment in cqlsh(source, statement, tmp_path), statement

    script = tmp_path / "schema.cql"
    script.write_text(described)
    target = node_factory("target").start()
    cqlsh_file(target, script, tmp_path)
    assert schema_text(target, tmp_path) == described
