"""Process tests: a Charybdis node started by bin/charybdis as a separate process, used by real clients.

Each node runs in its own temporary working directory (data, commit log and logs under it) on free ports,
is considered up once its CQL port answers an OPTIONS request with SUPPORTED, and is stopped (SIGTERM,
then SIGKILL after 60 s) or killed when its test or session ends. When a test fails, the tail of the
node's output and system.log is attached to the report.
"""

import atexit
import contextlib
import os
import signal
import socket
import struct
import subprocess
import time
import uuid
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
LAUNCHER = REPO / "bin" / "charybdis"

START_TIMEOUT_S = int(os.environ.get("CHARYBDIS_TEST_START_TIMEOUT", "120"))
STOP_TIMEOUT_S = 60
# More launcher arguments for every node, e.g. CHARYBDIS_TEST_NODE_ARGS="-Dcharybdis.smp=4 -Xmx2G".
EXTRA_NODE_ARGS = os.environ.get("CHARYBDIS_TEST_NODE_ARGS", "").split()
BUILD_TIMEOUT_S = 1200

# Every node made in this session, newest last (for failure reports when a test's own are unknown).
_NODES = []


def free_ports(count):
    """Distinct ports that were free a moment ago (held open together so none repeats)."""
    sockets = []
    try:
        for _ in range(count):
            s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            s.bind(("127.0.0.1", 0))
            sockets.append(s)
        return [s.getsockname()[1] for s in sockets]
    finally:
        for s in sockets:
            s.close()


def cql_answers(host, port, timeout=5.0, wrap=None):
    """True if host:port speaks CQL: an OPTIONS request (protocol v4) gets a SUPPORTED response; `wrap` (a
    function of the connected socket, e.g. an SSLContext's wrap_socket) is applied first when given."""
    try:
        with socket.create_connection((host, port), timeout=timeout) as raw:
            s = wrap(raw) if wrap else raw
            s.settimeout(timeout)
            # version 4 request, flags 0, stream 1, opcode OPTIONS (0x05), empty body
            s.sendall(struct.pack(">BBhBi", 0x04, 0x00, 1, 0x05, 0))
            header = b""
            while len(header) < 9:
                chunk = s.recv(9 - len(header))
                if not chunk:
                    return False
                header += chunk
            version, _flags, stream, opcode, _length = struct.unpack(">BBhBi", header)
            return version & 0x80 != 0 and stream == 1 and opcode == 0x06
    except OSError:
        return False


class NodeStartError(Exception):
    pass


class NodeProcess:
    """One Charybdis node: `bin/charybdis -f` in `workdir`, on its own free ports."""

    def __init__(self, workdir, extra_args=(), smp=2):
        self.workdir = Path(workdir)
        self.workdir.mkdir(parents=True, exist_ok=True)
        (self.port, self.shard_aware_port, self.storage_port, self.jmx_port,
         self.prometheus_port) = free_ports(5)
        self.host = "127.0.0.1"
        self.smp = smp
        self.extra_args = list(extra_args)
        self.proc = None
        self.starts = 0
        self.output_path = None
        self.start_failure = None
        _NODES.append(self)

    def command(self):
        return [
            str(LAUNCHER), "-f",
            "--smp", str(self.smp),
            f"-Dcharybdis.native_transport_port={self.port}",
            f"-Dcharybdis.native_shard_aware_transport_port={self.shard_aware_port}",
            f"-Dcharybdis.storage_port={self.storage_port}",
            f"-Dcharybdis.jmx_port={self.jmx_port}",
            f"-Dcharybdis.prometheus_port={self.prometheus_port}",
            "-Dcharybdis.memory_budget=256MiB",
            *EXTRA_NODE_ARGS,
            *self.extra_args,
        ]

    def environment(self):
        # Only our own overrides: a developer's CHARYBDIS_* variables must not change what is tested.
        env = {k: v for k, v in os.environ.items() if not k.startswith("CHARYBDIS_")}
        env["CHARYBDIS_BUILD"] = "never"  # built once per session by the `built` fixture
        env["CHARYBDIS_HEAP"] = os.environ.get("CHARYBDIS_TEST_HEAP", "1G")
        return env

    def start(self, timeout=START_TIMEOUT_S):
        assert self.proc is None or self.proc.poll() is not None, "node already running"
        self.starts += 1
        self.output_path = self.workdir / f"node-output-{self.starts}.log"
        with open(self.output_path, "wb") as out:
            self.proc = subprocess.Popen(
                self.command(), cwd=self.workdir, env=self.environment(),
                stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT,
                start_new_session=True)
        deadline = time.monotonic() + timeout
        while True:
            code = self.proc.poll()
            if code is not None:
                self._start_failed(f"node exited with code {code} during startup (in {self.workdir})")
            if self.ready():
                self.start_failure = None
                return self
            if time.monotonic() > deadline:
                self.kill()
                self._start_failed(f"node did not answer CQL on {self.host}:{self.port} within {timeout}s; killed it")
            time.sleep(0.25)

    def ready(self):
        """True once the node answers CQL (subclasses serving TLS check through TLS)."""
        return cql_answers(self.host, self.port, timeout=2.0)

    def _start_failed(self, what):
        self.start_failure = what
        raise NodeStartError(f"{what}\n{self.log_tail()}")

    def running(self):
        return self.proc is not None and self.proc.poll() is None

    def stop(self, timeout=STOP_TIMEOUT_S):
        """SIGTERM (clean shutdown); SIGKILL if still running after `timeout` s. Returns (exit code, clean)."""
        if self.proc is None:
            return None, True
        if self.proc.poll() is None:
            self._signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                self.kill()
                return self.proc.returncode, False
        return self.proc.returncode, True

    def kill(self):
        """SIGKILL, as a crash would."""
        if self.proc is not None and self.proc.poll() is None:
            self._signal(signal.SIGKILL)
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                pass

    def _signal(self, sig):
        # The launcher execs java, so the process group holds the JVM (and nothing else of ours).
        try:
            os.killpg(self.proc.pid, sig)
        except ProcessLookupError:
            pass

    def log_tail(self, lines=120):
        """The end of the node's console output (which has all that system.log has, and JVM errors)."""
        path = self.output_path
        if path is None or not path.exists():
            return f"(no output yet in {self.workdir})"
        text = path.read_text(errors="replace").splitlines()
        header = f"---- {path}, last {min(lines, len(text))} of {len(text)} lines (full log: {self.workdir}/logs)"
        return "\n".join([header, *text[-lines:]])


# ---------------------------------------------------------------- driver helpers

@contextlib.contextmanager
def connect(node, keyspace=None, protocol_version=None, **cluster_kwargs):
    """A python-driver Session to `node`, shut down afterwards."""
    from cassandra.cluster import EXEC_PROFILE_DEFAULT, Cluster, ExecutionProfile
    from cassandra.policies import RoundRobinPolicy

    profile = ExecutionProfile(load_balancing_policy=RoundRobinPolicy(), request_timeout=30)
    kwargs = dict(contact_points=[node.host], port=node.port,
                  execution_profiles={EXEC_PROFILE_DEFAULT: profile},
                  connect_timeout=30, control_connection_timeout=30, **cluster_kwargs)
    if protocol_version is not None:
        kwargs["protocol_version"] = protocol_version
    cluster = Cluster(**kwargs)
    try:
        yield cluster.connect(keyspace)
    finally:
        cluster.shutdown()


def unique_name(prefix):
    return f"{prefix}_{uuid.uuid4().hex[:10]}"


# ---------------------------------------------------------------- fixtures

@pytest.fixture(scope="session")
def built():
    """Builds the node once (if node/target is missing or stale), before any node is timed for startup."""
    env = {k: v for k, v in os.environ.items() if k != "CHARYBDIS_BUILD"}
    try:
        result = subprocess.run([str(LAUNCHER), "--build-only"], cwd=REPO, env=env, stdin=subprocess.DEVNULL,
                                capture_output=True, text=True, timeout=BUILD_TIMEOUT_S)
    except subprocess.TimeoutExpired:
        pytest.fail(f"building the node took more than {BUILD_TIMEOUT_S}s")
    if result.returncode != 0:
        pytest.fail(f"bin/charybdis --build-only failed ({result.returncode}):\n{result.stdout}\n{result.stderr}")


@pytest.fixture(scope="session")
def node(built, tmp_path_factory):
    """One node shared by the tests of the session; each test uses its own keyspace."""
    n = NodeProcess(tmp_path_factory.mktemp("node"))
    failure = None
    try:
        n.start()
    except NodeStartError as e:
        failure = str(e)
    if failure:
        pytest.fail(failure, pytrace=False)  # the message holds the node's log
    yield n
    n.stop()


@pytest.fixture
def node_factory(built, tmp_path):
    """Makes nodes (not started) in the test's own directory; stops whatever is still running afterwards."""
    factory = _NodeFactory(tmp_path)
    yield factory
    for n in factory.made:
        n.stop()


class _NodeFactory:
    def __init__(self, directory):
        self.directory = directory
        self.made = []

    def __call__(self, name="node", extra_args=(), smp=2):
        n = NodeProcess(self.directory / name, extra_args=extra_args, smp=smp)
        self.made.append(n)
        return n


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    if report.failed and report.when in ("setup", "call"):
        funcargs = getattr(item, "funcargs", {})
        nodes = [v for v in funcargs.values() if isinstance(v, NodeProcess)]
        factory = funcargs.get("node_factory")
        nodes += factory.made if isinstance(factory, _NodeFactory) else []
        for n in nodes or _NODES[-1:]:
            if n.start_failure:
                continue  # the failure message already holds the log
            report.sections.append((f"charybdis node log ({n.workdir})", n.log_tail()))


def pytest_sessionfinish(session, exitstatus):
    # Nodes run in their own process groups; never leave one behind (e.g. after a timeout or Ctrl-C).
    for n in _NODES:
        if n.running():
            n.kill()


atexit.register(lambda: [n.kill() for n in _NODES if n.running()])
