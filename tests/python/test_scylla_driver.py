"""ScyllaDB's Python driver (scylla-driver) against a node started by bin/charybdis.

Charybdis advertises ScyllaDB's protocol extension for shard awareness, so ScyllaDB's drivers treat it as ScyllaDB:
they append `USING TIMEOUT` to their schema queries, read `system_schema.scylla_*` and open a connection per shard
through the shard-aware port. scylla-driver installs the same `cassandra` package as cassandra-driver, so it runs in
its own virtual environment, .venv-scylla (made here on first use from tests/python/scylla/requirements.txt), as a
subprocess: tests/python/scylla/roundtrip.py does the round trip and its checks.
"""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import REPO

SCYLLA_DIR = Path(__file__).resolve().parent / "scylla"
REQUIREMENTS = SCYLLA_DIR / "requirements.txt"
VENV = Path(os.environ.get("CHARYBDIS_SCYLLA_VENV", REPO / ".venv-scylla"))


def scylla_python():
    """The interpreter of .venv-scylla, made or refreshed when requirements.txt is newer than its stamp."""
    python = VENV / "bin" / "python"
    stamp = VENV / ".requirements-installed"
    if python.exists() and stamp.exists() and stamp.stat().st_mtime >= REQUIREMENTS.stat().st_mtime:
        return python
    if not python.exists():
        subprocess.run([sys.executable, "-m", "venv", str(VENV)], check=True, timeout=300)
    result = None
    for _ in range(3):
        result = subprocess.run([str(python), "-m", "pip", "install", "-q", "--disable-pip-version-check",
                                 "--retries", "5", "--timeout", "60", "-r", str(REQUIREMENTS)],
                                capture_output=True, text=True, timeout=900)
        if result.returncode == 0:
            stamp.touch()
            return python
    pytest.fail(f"could not install {REQUIREMENTS} into {VENV}:\n{result.stdout}\n{result.stderr}")


def test_scylla_python_driver_round_trip_with_shard_awareness(node):
    python = scylla_python()
    result = subprocess.run([str(python), str(SCYLLA_DIR / "roundtrip.py"), node.host, str(node.port),
                             str(node.shard_aware_port), str(node.smp)],
                            capture_output=True, text=True, timeout=300, cwd=SCYLLA_DIR)
    assert result.returncode == 0, f"scylla-driver round trip failed:\n{result.stdout}\n{result.stderr}"
    assert "round trip: ok" in result.stdout
