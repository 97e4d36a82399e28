"""Lightweight transactions across three Charybdis processes stay linearizable while nodes are killed and paused.

Several gocql clients run compare-and-set, conditional writes and SERIAL reads on a few registers of a keyspace with
replication factor 3 (tests/go/lwt-linearizability), while this test kills one node with SIGKILL and restarts it,
then freezes another with SIGSTOP (to its peers and clients a node cut off from the network: connections stay open
and nothing answers) and lets it go again. The recorded history is checked by Porcupine, a linearizability checker.
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
RUN_SECONDS = 30


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
    for n in nodes:
        n.start()

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
        time.sleep(3)
        os.killpg(nodes[1].proc.pid, signal.SIGSTOP)  # cut off: its peers and clients get no answers
        time.sleep(5)
        os.killpg(nodes[1].proc.pid, signal.SIGCONT)
        code = run.wait(timeout=RUN_SECONDS + 240)
    finally:
        if nodes[1].running():
            os.killpg(nodes[1].proc.pid, signal.SIGCONT)
        if run.poll() is None:
            run.kill()
    reader.join(timeout=10)
    text = "".join(output)
    assert code == 0, f"lwt-linearizability exited with {code}:\n{text[-20000:]}"
    print(text)
    assert "linearizable: yes" in text, text
