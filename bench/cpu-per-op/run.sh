#!/usr/bin/env bash
# Server CPU time per operation: starts bin/charybdis -f (2 shards by default) in a scratch directory on free
# ports, drives it with bin/charybdis-stress (64 threads), and reads the node process's utime+stime from
# /proc/<pid>/stat right before and after each measured phase. Prints µs of server CPU per operation.
#
#   bench/cpu-per-op/run.sh [N]      N operations per measured phase (default 200000)
#   WARMUP=M (default 400000)          writes, then reads, before measuring (shorter leaves the JIT compiling)
#
# Also prints the CPU of each thread group (threads by name) during each phase, to see where the time went.
# Phases: warm-up writes and reads (not measured), writes of N distinct partitions (seq), then N reads of those
# partitions (uniform; all in memtables or the row cache: in-memory reads).
set -euo pipefail
REPO="$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/../.." && pwd)"
N="${1:-200000}"
WARMUP="${WARMUP:-400000}"
BASE="${CPU_BENCH_PORT_BASE:-37000}"
WORK="$(mktemp -d /tmp/cpu-per-op.XXXXXX)"
TICK="$(getconf CLK_TCK)"
export CHARYBDIS_BUILD=never
export CHARYBDIS_NATIVE_TRANSPORT_PORT=$((BASE + 42))
export CHARYBDIS_NATIVE_SHARD_AWARE_TRANSPORT_PORT=$((BASE + 142))
export CHARYBDIS_JMX_PORT=$((BASE + 199))
export CHARYBDIS_PROMETHEUS_PORT=$((BASE + 180))
export CHARYBDIS_STORAGE_PORT=$((BASE + 100))

if (exec 3<>"/dev/tcp/127.0.0.1/$CHARYBDIS_NATIVE_TRANSPORT_PORT") 2>/dev/null; then
  echo "port $CHARYBDIS_NATIVE_TRANSPORT_PORT is taken: set CPU_BENCH_PORT_BASE" >&2
  exit 1
fi
(cd "$WORK" && exec "$REPO/bin/charybdis" -f >"$WORK/node.out" 2>&1) &
launcher=$!
cleanup() {
  local pid
  pid="$(pgrep -P "$launcher" java || true)"
  [ -n "$pid" ] && kill "$pid" 2>/dev/null || true
  kill "$launcher" 2>/dev/null || true
  wait "$launcher" 2>/dev/null || true
  rm -rf "$WORK"
}
trap cleanup EXIT
for _ in $(seq 1 120); do
  (exec 3<>"/dev/tcp/127.0.0.1/$CHARYBDIS_NATIVE_TRANSPORT_PORT") 2>/dev/null && break
  sleep 1
done
pid="$(pgrep -f "charybdis.home=$WORK" | head -1 || true)"
[ -z "$pid" ] && pid="$(pgrep -P "$launcher" java | head -1)"
[ -n "$pid" ] || { echo "node did not start"; cat "$WORK/node.out"; exit 1; }

cpu() { awk '{print $14 + $15}' "/proc/$pid/stat"; }
# the shard threads alone (Netty event loops named charybdis-shard-*, truncated to 15 characters in comm)
shard_cpu() {
  local t sum=0
  for t in /proc/"$pid"/task/*; do
    [ "$(cat "$t/comm" 2>/dev/null)" = "charybdis-shard" ] || continue
    sum=$((sum + $(awk '{print $14 + $15}' "$t/stat")))
  done
  echo "$sum"
}
stress() {
  local cmd="$1" count="$2"
  shift 2
  "$REPO/bin/charybdis-stress" "$cmd" "$count" no-warmup cl=ONE "$@" -node 127.0.0.1 -port native="$CHARYBDIS_NATIVE_TRANSPORT_PORT" \
    jmx="$CHARYBDIS_JMX_PORT" -mode native cql3 -rate threads=64 >"$WORK/stress.out" 2>&1 \
    || { cat "$WORK/stress.out"; exit 1; }
  grep -E "^Op rate" "$WORK/stress.out" | head -1 >&2
}
measure() {
  local name="$1"
  shift
  local before after shard_before shard_after
  before="$(cpu)"
  shard_before="$(shard_cpu)"
  stress "$@"
  after="$(cpu)"
  shard_after="$(shard_cpu)"
  awk -v b="$before" -v a="$after" -v sb="$shard_before" -v sa="$shard_after" -v t="$TICK" -v n="$N" -v name="$name" \
    'BEGIN { printf "%-6s %8.1f µs server CPU per op, %5.1f µs of it on shard threads (%d ops, %.2f s CPU)\n",
             name, (a - b) / t / n * 1e6, (sa - sb) / t / n * 1e6, n, (a - b) / t }'
}
# CPU ticks per thread group (thread names without their numbers), sorted by name
threads() {
  local t
  for t in /proc/"$pid"/task/*; do
    printf '%s\t%s\n' "$(sed 's/[-_#0-9]*$//' "$t/comm" 2>/dev/null)" "$(awk '{print $14 + $15}' "$t/stat" 2>/dev/null)"
  done | awk -F'\t' '{s[$1] += $2} END {for (k in s) print k "\t" s[k]}' | sort >"$1"
}
stress write n="$WARMUP" -pop seq=1..$WARMUP 2>/dev/null # warm-up (JIT)
stress read n="$WARMUP" -pop "dist=uniform(1..$WARMUP)" 2>/dev/null
threads "$WORK/t0"
measure write write n="$N" -pop seq=1..$N
threads "$WORK/t1"
measure read read n="$N" -pop "dist=uniform(1..$N)"
threads "$WORK/t2"
echo "CPU ticks (1/$TICK s) by thread group, write / read phase (groups above 0.2 s):"
join -t$'\t' "$WORK/t0" "$WORK/t1" | join -t$'\t' - "$WORK/t2" |
  awk -F'\t' -v t="$TICK" '{w = $3 - $2; r = $4 - $3; if (w + r > t / 5) printf "  %-24s %6d / %6d\n", $1, w, r}'
