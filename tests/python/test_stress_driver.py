"""bin/charybdis-stress on either Java driver against a node started by bin/charybdis.

With CHARYBDIS_STRESS_DRIVER=scylla the loader runs on ScyllaDB's shard-aware fork of the Java driver (fetched from
Maven Central the first time), which reads the node's SCYLLA_* options, opens connections to every shard through
the shard-aware port and routes each request to the shard that owns its token. Both drivers must write and read
the same data with no errors.
"""

import os
import re
import subprocess

import pytest

from conftest import REPO

STRESS = REPO / "bin" / "charybdis-stress"
# The first scylla run may fetch the driver and its dependencies with Maven.
TIMEOUT_S = 900


def _stress(node, driver, *args):
    env = dict(os.environ, CHARYBDIS_STRESS_DRIVER=driver, CHARYBDIS_STRESS_HEAP="512M")
    cmd = [str(STRESS), *args, "-node", node.host, "-port", f"native={node.port}", f"jmx={node.jmx_port}"]
    result = subprocess.run(cmd, cwd=REPO, env=env, stdin=subprocess.DEVNULL, capture_output=True, text=True,
                            timeout=TIMEOUT_S)
    output = result.stdout + result.stderr
    assert result.returncode == 0, f"{' '.join(cmd)} exited with {result.returncode}:\n{output[-6000:]}"
    return output


def _results(output):
    total = re.search(r"^Total partitions\s*:\s*([\d,]+)", output, re.M)
    errors = re.search(r"^Total errors\s*:\s*([\d,]+)", output, re.M)
    assert total and errors, f"no Results block in:\n{output[-4000:]}"
    return int(total.group(1).replace(",", "")), int(errors.group(1).replace(",", ""))


@pytest.mark.parametrize("driver, coordinates", [
    ("apache", "org.apache.cassandra:java-driver-core"),
    ("scylla", "com.scylladb:java-driver-core"),
])
def test_write_then_read_on_each_driver(node, driver, coordinates):
    keyspace = f"stress_{driver}"
    common = ["cl=ONE", "no-warmup", "-pop", "seq=1..5000", "-rate", "threads=8", "-schema", f"keyspace={keyspace}"]
    written = _stress(node, driver, "write", "n=5000", *common)
    line = re.search(r"^Driver: (.*)$", written, re.M)
    assert line, f"no Driver line in:\n{written[:3000]}"
    assert line.group(1).startswith(coordinates), line.group(1)
    if driver == "scylla":
        # The fork found the node's shards (the node runs --smp 2).
        assert re.search(rf"shard-aware: \S*{re.escape(node.host)}\S* {node.smp} shards", line.group(1)), line.group(1)
    else:
        assert "shard-aware" not in line.group(1)
    assert _results(written) == (5000, 0)

    read = _stress(node, driver, "read", "n=5000", *common)
    assert _results(read) == (5000, 0)
    # cassandra-stress's read validates each row it reads back; a missing row is an error, not a silent pass.
    assert not re.search(r"^(java\.|com\.datastax).*Exception", read, re.M), read[-4000:]
