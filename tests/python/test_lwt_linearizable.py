"""Lightweight transactions across three Charybdis processes stay linearizable while nodes are killed, partitioned
and paused.

Several gocql clients run compare-and-set, conditional writes and SERIAL reads on a few registers of a keyspace with
replication factor 3 (tests/go/lwt-linearizability), while this test kills one node with SIGKILL and restarts it,
partitions another from its two peers (each node's test-only partition file, -Dcharybdis.test.partition_file: the
nodes drop every internode frame to the addresses listed there, in both directions once both sides list each other;
its clients still reach it), heals the partition, then freezes a node with SIGSTOP (to its peers and clients a node
that answers nothing) and lets it go again. The recorded history is checked by Porcupine, a linearizability checker.
Skipped where Go is not installed.
"""

import os
import shutil
import signal
import subprocess
import threading
import time

import pytest

from conftest import REPO, free_ports
from test_cluster import _cluster_nodes

PROGRAM = REPO / "tests" / "go" / "lwt-linearizability"
RUN_SECONDS = 40


@pytest.fixture(scope="module")
def checker(tmp_path_factory):
    go = shutil.which("go") or ("/usr/local/go/bin/go" if os.path.exists("/usr/local/go/bin/go") else None)
    if go is None:
        pytest.skip("go is not installed: the linearizability check needs a Go toolchain (gocql and Porcupine)")
    binary = tmp_path_factory.mktemp("lwt") / "lwt-linearizability"
    result = subprocess.run([go, "build", "-mod=mod", "-o", str(binary), "."], cwd=PROGRAM, capture_output=True,
                            text=True, timeout=900)
    assert result.returncode == 0, f"go build failed:\n{result.stdout}\n{result.stderr}"
    return binary


def test_lwt_histories_under_kills_and_pauses_are_linearizable(node_factory, checker):
    nodes = _cluster_nodes(node_factory)
    (port,) = free_ports(1)
    for n in nodes:  # one native port on each node's own address, as gocql expects of a ring
        n.port = port
        n.partition_file = n.workdir / "partition"
        n.extra_args.append(f"-Dcharybdis.test.partition_file={n.partition_file}")
    for n in nodes:
        n.start()

    def partition(isolated):
        """Cuts `isolated` off from the other nodes (both directions); None heals every partition."""
        for n in nodes:
            if isolated is None:
                cut = []
            elif n is isolated:
                cut = [m.host for m in nodes if m is not n]
            else:
                cut = [isolated.host]
            tmp = n.partition_file.with_suffix(".tmp")
            tmp.write_text("".join(f"{h}\n" for h in cut))
            tmp.replace(n.partition_file)

    run = subprocess.Popen([str(checker), "-hosts", ",".join(n.host for n in nodes), "-port", str(port),
                            "-keyspace", "lwt", "-clients", "6", "-keys", "3", "-duration", f"{RUN_SECONDS}s",
                            "-min-ok", "100"],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    output = []
    reader = threading.Thread(target=lambda: output.extend(run.stdout), daemon=True)
    reader.start()
    try:
        time.sleep(6)  # schema, initial values, then some history with every node up
        nodes[2].kill()  # a crash: in-flight transactions on it have unknown outcomes
        time.sleep(5)
        nodes[2].start()
        time.sleep(2)
        partition(nodes[0])  # the minority side: its clients' transactions fail or time out; the majority goes on
        time.sleep(5)
        partition(None)
        time.sleep(3)
        os.killpg(nodes[1].proc.pid, signal.SIGSTOP)  # frozen: its peers and clients get no answers
        time.sleep(5)
        os.killpg(nodes[1].proc.pid, signal.SIGCONT)
        code = run.wait(timeout=RUN_SECONDS + 240)
    finally:
        partition(None)
        if nodes[1].running():
            os.killpg(nodes[1].proc.pid, signal.SIGCONT)
        if run.poll() is None:
            run.kill()
    reader.join(timeout=10)
    text = "".join(output)
    assert code == 0, f"lwt-linearizability exited with {code}:\n{text[-20000:]}"
    print(text)
    assert "linearizable: yes" in text, text
    # the partition took effect: the isolated node dropped its traffic to both peers
    log = "".join(p.read_text(errors="replace") for p in nodes[0].workdir.glob("node-output-*.log"))
    assert any("cut off from" in line and nodes[1].host in line and nodes[2].host in line
               for line in log.splitlines()), "the partition file was not applied"
