#!/usr/bin/env bash
# Three nodes, replication factor 3, QUORUM: the issue-12 setup at this machine's scale. Charybdis on
# 127.0.0.1-3 (bin/charybdis, seeds 127.0.0.1 and 127.0.0.2), then Apache Cassandra 5.0.6 on 127.0.0.2-4
# (../shared/tools/cassandra-reference/cluster.sh), one after the other, the same bin/charybdis-stress loads
# against each: write n=N (64 threads, cl=QUORUM, replication factor 3), then read n=N of those keys (uniform),
# then a mixed load of n=N operations, one write for three reads, over the same keys.
# Prints each Results block, and the server CPU time of the three node processes together per operation
# (utime+stime from /proc before and after each load). Heaps 1 GiB each on both sides. Then latency at a fixed
# rate: FIXED op/s of writes, then of reads, for 20 s each (`-rate threads=64 fixed=FIXED/s`: each operation is
# due on a schedule and its latency counts from when it was due, so a stall shows in the percentiles).
#
#   bench/cluster/run.sh [N]        (default N=100000; FIXED=1500 by default, below both systems' capacity)
set -euo pipefail
REPO="$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/../.." && pwd)"
N="${1:-100000}"
FIXED="${FIXED:-1500}"
CASSANDRA_TOOLS="${CASSANDRA_TOOLS:-$REPO/../shared/tools/cassandra-reference}"
WORK="$(mktemp -d /tmp/cluster-bench.XXXXXX)"
TICK="$(getconf CLK_TCK)"
export CHARYBDIS_BUILD=never
PIDS=()

cleanup() {
  for p in "${PIDS[@]+"${PIDS[@]}"}"; do
    kill "$p" 2>/dev/null || true
  done
  for p in "${PIDS[@]+"${PIDS[@]}"}"; do
    wait "$p" 2>/dev/null || true
  done
  [ -x "$CASSANDRA_TOOLS/cluster.sh" ] && "$CASSANDRA_TOOLS/cluster.sh" stop >/dev/null 2>&1 || true
  rm -rf "$WORK"
}
trap cleanup EXIT

cpu_ticks() { # summed utime+stime of the given pids
  local t=0 p
  for p in "$@"; do
    t=$((t + $(awk '{print $14 + $15}' "/proc/$p/stat")))
  done
  echo "$t"
}

wait_cql() {
  local host="$1" i
  for i in $(seq 1 180); do
    (exec 3<>"/dev/tcp/$host/9042") 2>/dev/null && return 0
    sleep 1
  done
  echo "no CQL on $host:9042" >&2
  return 1
}

# load NAME NODES PIDS... -- stress arguments
load() {
  local name="$1" nodes="$2"
  shift 2
  local pids=()
  while [ "$1" != "--" ]; do pids+=("$1"); shift; done
  shift
  local before after
  before=$(cpu_ticks "${pids[@]}")
  local rate="${RATE:-threads=64}" ops="${OPS:-$N}"
  "$REPO/bin/charybdis-stress" "$@" -node "$nodes" -rate $rate >"$WORK/$name.txt" 2>&1 || true
  after=$(cpu_ticks "${pids[@]}")
  echo "== $name: bin/charybdis-stress $* -node $nodes -rate $rate"
  sed -n '/^Results:/,/^Total operation time/p' "$WORK/$name.txt"
  awk -v t="$((after - before))" -v hz="$TICK" -v n="$ops" \
    'BEGIN { printf "server CPU per operation (3 nodes together): %.1f us\n", t / hz * 1e6 / n }'
}

loads() {
  local who="$1" nodes="$2"
  shift 2
  load "$who-write" "$nodes" "$@" -- write "n=$N" cl=QUORUM -schema "replication(factor=3)" -pop "seq=1..$N"
  load "$who-read" "$nodes" "$@" -- read "n=$N" cl=QUORUM -pop "dist=UNIFORM(1..$N)"
  load "$who-mixed" "$nodes" "$@" -- mixed "ratio(write=1,read=3)" "n=$N" cl=QUORUM -pop "dist=UNIFORM(1..$N)"
  local f=$((FIXED * 20))
  RATE="threads=64 fixed=$FIXED/s" OPS=$f load "$who-write-fixed" "$nodes" "$@" -- write "n=$f" cl=QUORUM \
    -pop "seq=$((N + 1))..$((N + f))"
  RATE="threads=64 fixed=$FIXED/s" OPS=$f load "$who-read-fixed" "$nodes" "$@" -- read "n=$f" cl=QUORUM \
    -pop "dist=UNIFORM(1..$N)"
}

echo "# $(date -u +%FT%TZ) $(nproc) cores, load avg $(cut -d' ' -f1-3 /proc/loadavg), N=$N"
# ---- Charybdis
for i in 1 2 3; do
  mkdir -p "$WORK/n$i"
  (cd "$WORK/n$i" && CHARYBDIS_HEAP=1G exec "$REPO/bin/charybdis" -f --smp 2 \
    -Dcharybdis.listen_address=127.0.0.$i -Dcharybdis.rpc_address=127.0.0.$i \
    -Dcharybdis.seeds=127.0.0.1:7000,127.0.0.2:7000 -Dcharybdis.memory_budget=1GiB \
    -Dcharybdis.prometheus_port=$((9180 + i)) >"$WORK/n$i/out.log" 2>&1) &
  PIDS+=($!)
  wait_cql "127.0.0.$i"
done
java_pids=()
for p in "${PIDS[@]}"; do
  java_pids+=("$(pgrep -P "$p" java || echo "$p")")
done
loads charybdis 127.0.0.1,127.0.0.2,127.0.0.3 "${java_pids[@]}"
for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null || true; done
for p in "${PIDS[@]}"; do wait "$p" 2>/dev/null || true; done
PIDS=()

# ---- Apache Cassandra 5.0.6
CASSANDRA_HEAP=1G "$CASSANDRA_TOOLS/cluster.sh" start 3 --clean >"$WORK/cassandra-start.txt" 2>&1
base="$(. "$CASSANDRA_TOOLS/env.sh" >/dev/null 2>&1; echo "${CASSANDRA_CLUSTER_WORK:-$WORK_DIR-cluster}")"
c_pids=()
for i in 1 2 3; do
  c_pids+=("$(tr -cd '0-9' <"$base/node$i/cassandra.pid")")
done
loads cassandra 127.0.0.2,127.0.0.3,127.0.0.4 "${c_pids[@]}"
"$CASSANDRA_TOOLS/cluster.sh" stop >/dev/null 2>&1
