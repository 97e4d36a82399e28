"""cqlsh from PyPI against a node started by bin/charybdis."""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import connect, unique_name


def cqlsh_executable():
    beside_python = Path(sys.executable).parent / "cqlsh"
    found = str(beside_python) if beside_python.exists() else shutil.which("cqlsh")
    if not found:
        pytest.fail("cqlsh is not installed; pip install -r tests/python/requirements.txt")
    return found


def cqlsh(node, statement, home, timeout=90):
    env = dict(os.environ, HOME=str(home))  # no ~/.cassandra/cqlshrc or history of the user
    result = subprocess.run(
        [cqlsh_executable(), node.host, str(node.port), "--connect-timeout", "30", "--request-timeout", "30",
         "-e", statement],
        env=env, stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=timeout)
    assert result.returncode == 0, f"cqlsh -e {statement!r} failed ({result.returncode}):\n{result.stdout}\n{result.stderr}"
    return result.stdout


def test_cqlsh_is_installed():
    result = subprocess.run([cqlsh_executable(), "--version"], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0 and result.stdout.startswith("cqlsh "), result.stdout + result.stderr


@pytest.fixture(scope="module")
def schema(node):
    ks = unique_name("cqlsh")
    with connect(node) as session:
        session.execute(f"CREATE KEYSPACE {ks} WITH replication = {{'class': 'SimpleStrategy', 'replication_factor': 1}}")
        session.execute(f"CREATE TABLE {ks}.t (pk int, ck text, v double, PRIMARY KEY (pk, ck))")
        for ck in ("a", "b", "c"):
            session.execute(f"INSERT INTO {ks}.t (pk, ck, v) VALUES (1, %s, 1.5)", (ck,))
    return ks


def test_describe_keyspaces_lists_the_keyspace(node, schema, tmp_path):
    out = cqlsh(node, "DESCRIBE KEYSPACES", tmp_path)
    names = out.split()
    assert schema in names and "system" in names and "system_schema" in names, out


def test_describe_table_prints_create_table(node, schema, tmp_path):
    out = cqlsh(node, f"DESCRIBE TABLE {schema}.t", tmp_path)
    assert f"CREATE TABLE {schema}.t (" in out, out
    for column in ("pk int", "ck text", "v double"):
        assert column in out, out
    assert "PRIMARY KEY (pk, ck)" in out, out
    assert "CLUSTERING ORDER BY (ck ASC)" in out, out


def test_select_prints_rows(node, schema, tmp_path):
    out = cqlsh(node, f"SELECT * FROM {schema}.t WHERE pk = 1", tmp_path)
    assert "(3 rows)" in out, out
    assert " pk | ck | v" in out, out
