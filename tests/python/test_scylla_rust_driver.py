"""ScyllaDB's Rust driver (the `scylla` crate, pinned to 1.9.0 in tests/rust/scylla-roundtrip) against a node
started by bin/charybdis: schema with schema agreement, prepared writes, paging, metadata and shard awareness, as
tests/rust/scylla-roundtrip/src/main.rs checks them. The program is built once (a debug build, with the versions of
its Cargo.lock) into tests/rust/scylla-roundtrip/target; the test is skipped where cargo is not installed.
"""

import shutil
import subprocess
from pathlib import Path

import pytest

from conftest import REPO

PROJECT = REPO / "tests" / "rust" / "scylla-roundtrip"
BUILD_TIMEOUT_S = 1800


@pytest.fixture(scope="module")
def roundtrip_binary():
    cargo = shutil.which("cargo")
    if cargo is None:
        pytest.skip("cargo is not installed: the Rust driver test needs a Rust toolchain")
    result = subprocess.run([cargo, "build", "--locked", "--quiet"], cwd=PROJECT, capture_output=True, text=True,
                            timeout=BUILD_TIMEOUT_S, env=_cargo_env())
    assert result.returncode == 0, f"cargo build failed:\n{result.stdout}\n{result.stderr}"
    binary = PROJECT / "target" / "debug" / "scylla-roundtrip"
    assert binary.exists()
    return binary


def _cargo_env():
    import os
    env = dict(os.environ)
    env.pop("CARGO_TARGET_DIR", None)  # build where the fixture looks for the binary
    return env


def test_scylla_rust_driver_round_trip_with_shard_awareness(node, roundtrip_binary):
    result = subprocess.run([str(roundtrip_binary), node.host, str(node.port), str(node.smp)],
                            capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, f"Rust driver round trip failed:\n{result.stdout}\n{result.stderr}"
    assert "round trip: ok" in result.stdout
