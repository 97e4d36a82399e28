#!/usr/bin/env python3
"""Records Apache Cassandra 5.0's answers for the DESCRIBE golden files.

Run against a fresh Cassandra 5.0.x node (e.g. 127.0.0.2:9042), with the Python driver installed:
    python3 capture.py [host] [port]
It creates schema.cql's keyspaces, runs every query of queries.txt and writes describe.json (query, keyspace in
use, result column names and types, rows or the error), system_schema.json (the system_schema rows of the
keyspaces of schema.cql). It drops the keyspaces at
the end.
"""
import json
import os
import sys

from cassandra.cluster import Cluster

HERE = os.path.dirname(os.path.abspath(__file__))
host = sys.argv[1] if len(sys.argv) > 1 else '127.0.0.2'
port = int(sys.argv[2]) if len(sys.argv) > 2 else 9042

cluster = Cluster([host], port=port)
session = cluster.connect()
KEYSPACES = ['ks1', 'ks2', 'QuotedKs']
for ks in KEYSPACES:
    session.execute('DROP KEYSPACE IF EXISTS "%s"' % ks)
for line in open(os.path.join(HERE, 'schema.cql')):
    line = line.strip()
    if line and not line.startswith('--'):
        session.execute(line)


def plain(v):
    if v is None or isinstance(v, (str, int, float, bool)):
        return v
    if isinstance(v, (bytes, bytearray)):
        return '0x' + v.hex()
    if hasattr(v, 'items'):
        return {str(k): plain(x) for k, x in v.items()}
    if isinstance(v, (list, tuple, set, frozenset)) or type(v).__name__ == 'SortedSet':
        return [plain(x) for x in v]
    return str(v)


described = []
for line in open(os.path.join(HERE, 'queries.txt')):
    line = line.rstrip('\n')
    if not line or line.startswith('#'):
        continue
    keyspace = None
    if line.startswith('@'):
        keyspace, line = line[1:].split(' ', 1)
    s = cluster.connect(keyspace)
    entry = {'query': line, 'keyspace': keyspace}
    try:
        rs = s.execute(line)
        entry['columns'] = list(rs.column_names)
        entry['types'] = [t.cql_parameterized_type() for t in rs.column_types]
        entry['rows'] = [[plain(v) for v in r] for r in rs]
    except Exception as e:
        entry['error'] = {'code': getattr(e, 'code', None), 'message': getattr(e, 'message', str(e))}
    s.shutdown()
    described.append(entry)
with open(os.path.join(HERE, 'describe.json'), 'w') as f:
    json.dump(described, f, indent=1)

schema_rows = {}
for table in ['keyspaces', 'tables', 'columns', 'dropped_columns', 'types', 'indexes']:
    rows = []
    for ks in KEYSPACES:
        rs = session.execute('SELECT * FROM system_schema.%s WHERE keyspace_name = %%s' % table, [ks])
        names = rs.column_names
        for r in rs:
            row = {n: plain(v) for n, v in zip(names, r)}
            rows.append(row)
    schema_rows[table] = rows
with open(os.path.join(HERE, 'system_schema.json'), 'w') as f:
    json.dump(schema_rows, f, indent=1, sort_keys=True)

for ks in KEYSPACES:
    session.execute('DROP KEYSPACE IF EXISTS "%s"' % ks)
cluster.shutdown()
