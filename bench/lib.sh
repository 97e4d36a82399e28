# Shared by the benchmark scripts (bench/run, bench/compaction): starting and stopping Apache Cassandra 5.0.6
# and Charybdis one at a time, Apache's nodetool against either, running the loader and reading its Results
# block, and writing a block of BENCHMARKS.md. Sourced after the script has set REPO, BENCH, HEAP, C_ADDR,
# X_ADDR, PORT, JMX_PORT, keep and only; `bench_prepare MODE` then makes WORK and OUT.
# shellcheck shell=bash

CASSANDRA_VERSION=5.0.6

die() {
  echo "bench: $*" >&2
  exit 1
}
say() { echo "bench: $*" >&2; }

# ---------------------------------------------------------------- tools

# shellcheck source=bin/java-env.sh
source "$REPO/bin/java-env.sh" # JDK 21+ for Charybdis and the loader
X_JAVA_HOME="$JAVA_HOME"

java_major() { "$1" -XshowSettings:properties -version 2>&1 | awk -F'= ' '/java.specification.version/ {print $2; exit}' | cut -d. -f1; }
java_version() { "$1" -XshowSettings:properties -version 2>&1 | awk -F'= ' '/java.runtime.version/ {print $2; exit}'; }

find_cassandra_java() {
  local c m
  for c in ${BENCH_CASSANDRA_JAVA_HOME:-} /usr/lib/jvm/*17* /usr/lib/jvm/*11* /opt/java/*17* /opt/jdk*17* "$HOME"/.sdkman/candidates/java/17*; do
    [ -x "$c/bin/java" ] || continue
    m=$(java_major "$c/bin/java")
    case "$m" in 17 | 11) echo "$c"; return 0 ;; esac
  done
  return 1
}

port_open() { (exec 3<>"/dev/tcp/$1/$2") 2>/dev/null; }

WORK=""
STARTED_PIDS=()
cleanup() {
  local rc=$? p
  for p in "${STARTED_PIDS[@]+"${STARTED_PIDS[@]}"}"; do
    stop_pid "$p"
  done
  if [ -n "$WORK" ] && [ -d "$WORK" ]; then
    if [ "$keep" = 1 ]; then say "work directory kept: $WORK"; else rm -rf "$WORK"; fi
  fi
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# SIGTERM, wait up to 60 s, then SIGKILL. Only for processes this script started.
stop_pid() {
  local pid="$1" i
  kill -0 "$pid" 2>/dev/null || return 0
  say "stopping pid $pid"
  kill -TERM "$pid" 2>/dev/null || true
  for i in $(seq 1 120); do
    kill -0 "$pid" 2>/dev/null || return 0
    sleep 0.5
  done
  say "pid $pid still running after 60 s; SIGKILL"
  kill -KILL "$pid" 2>/dev/null || true
  sleep 0.5
}

forget_pid() {
  local p keep_pids=()
  for p in "${STARTED_PIDS[@]+"${STARTED_PIDS[@]}"}"; do [ "$p" = "$1" ] || keep_pids+=("$p"); done
  STARTED_PIDS=("${keep_pids[@]+"${keep_pids[@]}"}")
}

wait_port() { # addr port pid timeout_s -> prints seconds waited
  local addr="$1" port="$2" pid="$3" limit="$4" t0
  t0=$(date +%s.%N)
  while ! port_open "$addr" "$port"; do
    kill -0 "$pid" 2>/dev/null || return 1
    if awk -v a="$t0" -v b="$(date +%s.%N)" -v l="$limit" 'BEGIN { exit !(b - a > l) }'; then return 1; fi
    sleep 0.2
  done
  awk -v a="${LAUNCHED:-$t0}" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }'
}

rss_mib() { awk '/^VmRSS:/ {printf "%d", $2 / 1024}' "/proc/$1/status" 2>/dev/null || echo "?"; }

# ---------------------------------------------------------------- preparation

CACHE="${BENCH_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/charybdis-bench}"
C_LIB="$CACHE/cassandra-$CASSANDRA_VERSION/lib"
resolve_cassandra() {
  [ -f "$C_LIB/.complete" ] && return 0
  mkdir -p "$C_LIB"
  local args=(-B -q -f "$BENCH/cassandra/pom.xml" dependency:copy-dependencies -DincludeScope=runtime "-DoutputDirectory=$C_LIB")
  say "resolving cassandra-all $CASSANDRA_VERSION and its dependencies into $C_LIB"
  if ! (cd "$REPO" && ./mvnw -o "${args[@]}" >"$CACHE/mvn.log" 2>&1); then
    (cd "$REPO" && ./mvnw "${args[@]}" >"$CACHE/mvn.log" 2>&1) || { tail -20 "$CACHE/mvn.log" >&2; die "could not resolve cassandra-all $CASSANDRA_VERSION (see $CACHE/mvn.log)"; }
  fi
  ls "$C_LIB"/cassandra-all-"$CASSANDRA_VERSION".jar >/dev/null 2>&1 || die "cassandra-all-$CASSANDRA_VERSION.jar missing from $C_LIB"
  touch "$C_LIB/.complete"
}

# bench_prepare MODE: finds Cassandra's JDK, builds what is needed, resolves Cassandra's jars, makes WORK and OUT.
bench_prepare() {
  local mode="$1"
  # Cassandra's jars and JDK also serve its nodetool, used against both nodes.
  C_JAVA_HOME=$(find_cassandra_java) || C_JAVA_HOME=""
  if [ -z "$C_JAVA_HOME" ] && [ "$only" != charybdis ]; then
    die "Cassandra $CASSANDRA_VERSION needs a JDK 17 or 11; none found (set BENCH_CASSANDRA_JAVA_HOME)"
  fi
  case "${BENCH_BUILD:-auto}" in
    auto)
      say "building the node and the loader if needed"
      "$REPO/bin/charybdis" --build-only
      "$REPO/bin/charybdis-stress" --build-only ;;
    never) ;;
    *) die "BENCH_BUILD must be auto or never" ;;
  esac
  export CHARYBDIS_BUILD=never
  if [ -n "$C_JAVA_HOME" ]; then resolve_cassandra; fi
  WORK=$(mktemp -d "${TMPDIR:-/tmp}/charybdis-bench.XXXXXX")
  STAMP=$(date -u +%Y%m%dT%H%M%SZ)
  OUT="$BENCH/out/$STAMP-$mode"
  mkdir -p "$OUT"
}

# ---------------------------------------------------------------- nodes

# Module flags of Cassandra's conf/jvm17-server.options (also fine on 11), for the node and nodetool.
C_JPMS=(
    -Djdk.attach.allowAttachSelf=true
    --add-exports java.base/jdk.internal.misc=ALL-UNNAMED
    --add-exports java.management.rmi/com.sun.jmx.remote.internal.rmi=ALL-UNNAMED
    --add-exports java.rmi/sun.rmi.registry=ALL-UNNAMED --add-exports java.rmi/sun.rmi.server=ALL-UNNAMED
    --add-exports java.sql/java.sql=ALL-UNNAMED --add-exports java.base/java.lang.ref=ALL-UNNAMED
    --add-exports jdk.unsupported/sun.misc=ALL-UNNAMED
    --add-exports jdk.compiler/com.sun.tools.javac.file=ALL-UNNAMED
    --add-exports jdk.attach/sun.tools.attach=ALL-UNNAMED
    --add-opens java.base/java.lang.module=ALL-UNNAMED --add-opens java.base/jdk.internal.loader=ALL-UNNAMED
    --add-opens java.base/jdk.internal.ref=ALL-UNNAMED --add-opens java.base/jdk.internal.reflect=ALL-UNNAMED
    --add-opens java.base/jdk.internal.math=ALL-UNNAMED --add-opens java.base/jdk.internal.module=ALL-UNNAMED
    --add-opens java.base/jdk.internal.util.jar=ALL-UNNAMED
    --add-opens jdk.management/com.sun.management.internal=ALL-UNNAMED
    --add-opens java.base/sun.nio.ch=ALL-UNNAMED --add-opens java.base/java.io=ALL-UNNAMED
    --add-opens java.base/java.lang.reflect=ALL-UNNAMED --add-opens jdk.compiler/com.sun.tools.javac=ALL-UNNAMED
    --add-opens java.base/java.lang=ALL-UNNAMED --add-opens java.base/java.util=ALL-UNNAMED
    --add-opens java.base/java.nio=ALL-UNNAMED --add-opens java.base/java.util.concurrent=ALL-UNNAMED
    --add-opens java.base/java.util.concurrent.atomic=ALL-UNNAMED --add-opens java.base/java.math=ALL-UNNAMED
    --add-opens java.base/java.net=ALL-UNNAMED
)

# Cassandra's JVM flags: those of its conf/jvm17-server.options (G1), module flags and jamm agent.
cassandra_jvm_opts() {
  local w="$1"
  C_JVM=(
    "-Xms$HEAP" "-Xmx$HEAP" -Xss256k
    -XX:+UseG1GC -XX:+ParallelRefProcEnabled -XX:MaxTenuringThreshold=1 -XX:G1HeapRegionSize=16m
    -XX:G1RSetUpdatingPauseTimePercent=5 -XX:MaxGCPauseMillis=300 -XX:InitiatingHeapOccupancyPercent=70
    -XX:+UseTLAB -XX:+ResizeTLAB -XX:+PerfDisableSharedMem -XX:+AlwaysPreTouch
    -XX:StringTableSize=1000003 -XX:+UseThreadPriorities -XX:+HeapDumpOnOutOfMemoryError "-XX:HeapDumpPath=$w"
    -Djava.net.preferIPv4Stack=true -Dio.netty.tryReflectionSetAccessible=true
    -Dio.netty.allocator.useCacheForAllThreads=true -Dio.netty.allocator.maxOrder=11
    "${C_JPMS[@]}"
    "-javaagent:$C_LIB/jamm-0.4.0.jar"
    # JMX through the JDK's agent, bound to the node's own address (cassandra.jmx.local.port binds 127.0.0.1).
    "-Dcom.sun.management.jmxremote.port=$JMX_PORT" "-Dcom.sun.management.jmxremote.rmi.port=$JMX_PORT"
    "-Dcom.sun.management.jmxremote.host=$C_ADDR" "-Djava.rmi.server.hostname=$C_ADDR"
    -Dcom.sun.management.jmxremote.authenticate=false -Dcom.sun.management.jmxremote.ssl=false
    -Dcom.sun.management.jmxremote.local.only=false
    "-Dcassandra.config=file://$w/conf/cassandra.yaml" "-Dlogback.configurationFile=$w/conf/logback.xml"
    "-Dcassandra.logdir=$w/logs" "-Dcassandra.storagedir=$w"
    -Dcassandra.skip_wait_for_gossip_to_settle=0 -Dcassandra.superuser_setup_delay_ms=0
  )
}

cassandra_classpath() {
  local cp="$1/conf" j
  for j in "$C_LIB"/*.jar; do cp="$cp:$j"; done
  echo "$cp"
}

NODE_PID=""
start_cassandra() { # a fresh node in $WORK/cassandra, default settings
  local w="$WORK/cassandra"
  rm -rf "$w"
  mkdir -p "$w/conf" "$w/logs" "$w/data" "$w/commitlog" "$w/saved_caches" "$w/hints" "$w/cdc_raw"
  sed -e "s|@ADDRESS@|$C_ADDR|g" -e "s|@STORAGE_PORT@|7000|g" -e "s|@SSL_STORAGE_PORT@|7001|g" \
    -e "s|@NATIVE_PORT@|$PORT|g" -e "s|@WORK@|$w|g" "$BENCH/cassandra/cassandra.yaml.in" >"$w/conf/cassandra.yaml"
  cp "$BENCH/cassandra/logback.xml" "$w/conf/logback.xml"
  cassandra_jvm_opts "$w"
  LAUNCHED=$(date +%s.%N)
  nohup "$C_JAVA_HOME/bin/java" "${C_JVM[@]}" -cp "$(cassandra_classpath "$w")" \
    org.apache.cassandra.service.CassandraDaemon >"$w/logs/stdout.log" 2>&1 </dev/null &
  NODE_PID=$!
  STARTED_PIDS+=("$NODE_PID")
  if ! STARTUP_S=$(wait_port "$C_ADDR" "$PORT" "$NODE_PID" 300); then
    tail -30 "$w/logs/system.log" "$w/logs/stdout.log" >&2 2>/dev/null || true
    die "Cassandra did not open $C_ADDR:$PORT (logs above)"
  fi
  DATA_DIR="$w/data"
}

# Apache Cassandra's own nodetool (from the same jars) against the node under test ($NT_HOST:$JMX_PORT).
NT_HOST=""
nodetool() {
  local w="$WORK/nodetool"
  [ -n "$C_JAVA_HOME" ] || return 1
  if [ ! -f "$w/logback-tools.xml" ]; then
    mkdir -p "$w"
    printf '<configuration><root level="WARN"/></configuration>\n' >"$w/logback-tools.xml"
  fi
  timeout 60 "$C_JAVA_HOME/bin/java" -Xms64m -Xmx256m -XX:+UseSerialGC -XX:TieredStopAtLevel=1 "${C_JPMS[@]}" \
    "-Dcassandra.storagedir=$w" "-Dlogback.configurationFile=$w/logback-tools.xml" "-Dcassandra.logdir=$w" \
    -cp "$(cassandra_classpath "$w")" org.apache.cassandra.tools.NodeTool -h "$NT_HOST" -p "$JMX_PORT" "$@"
}
# Prints the pending compaction task count, plus 1 while a compaction is running (Cassandra's estimate of
# pending tasks can be 0 while one still runs); nothing if nodetool cannot tell.
pending_compactions() {
  nodetool compactionstats 2>>"$OUT/nodetool.log" | tee -a "$OUT/nodetool.log" |
    awk '/^pending tasks/ { p = $NF; seen = 1 } /^Active compaction remaining time/ { active = 1 }
         END { if (seen) print p + active }'
}

# start_charybdis [-Dcharybdis.key=value...]: a fresh node in $WORK/charybdis; extra settings as system properties.
start_charybdis() {
  local w="$WORK/charybdis"
  rm -rf "$w"
  mkdir -p "$w"
  LAUNCHED=$(date +%s.%N)
  (cd "$w" && CHARYBDIS_HOME="$w" CHARYBDIS_HEAP="$HEAP" "$REPO/bin/charybdis" -p "$w/charybdis.pid" \
    "-Dcharybdis.listen_address=$X_ADDR" "-Dcharybdis.rpc_address=$X_ADDR" \
    "-Dcharybdis.native_transport_port=$PORT" "-Dcharybdis.jmx_port=$JMX_PORT" "$@") >"$w/launch.log" 2>&1 || { cat "$w/launch.log" >&2; die "Charybdis did not start"; }
  NODE_PID=$(tr -cd '0-9' <"$w/charybdis.pid")
  STARTED_PIDS+=("$NODE_PID")
  if ! STARTUP_S=$(wait_port "$X_ADDR" "$PORT" "$NODE_PID" 300); then
    tail -30 "$w/logs/system.log" "$w/logs/stdout.log" >&2 2>/dev/null || true
    die "Charybdis did not open $X_ADDR:$PORT (logs above)"
  fi
  DATA_DIR="$w/data"
}

# start_node cassandra|charybdis [-Dcharybdis.key=value...]: starts a fresh node alone on its address; sets
# NODE_PID, STARTUP_S, NODE_LOAD_BEFORE, and STRESS_NODE / NT_HOST for the loader and nodetool.
start_node() {
  local node="$1" addr
  shift
  if [ "$node" = cassandra ]; then addr="$C_ADDR"; else addr="$X_ADDR"; fi
  port_open "$addr" "$PORT" && die "something already listens on $addr:$PORT; stop it first (this benchmark runs each node alone)"
  # nodetool must reach this node and no other: with the JMX port taken, Cassandra would not start and
  # Charybdis would start without JMX (nodetool would then talk to whatever holds the port).
  local jmx_free=1
  port_open "$addr" "$JMX_PORT" && jmx_free=0
  [ "$jmx_free" = 0 ] && [ "$node" = cassandra ] && die "something already listens on $addr:$JMX_PORT (JMX); stop it first"
  NODE_LOAD_BEFORE=$(cut -d' ' -f1-3 /proc/loadavg)
  say "starting $node on $addr:$PORT (heap $HEAP${*:+, $*}); load avg $NODE_LOAD_BEFORE"
  if [ "$node" = cassandra ]; then
    start_cassandra
  else
    start_charybdis "$@"
  fi
  STRESS_NODE="$addr"
  NT_HOST="$addr"
  if [ "$jmx_free" = 0 ] || grep -q 'JMX is disabled' "$WORK/$node/logs/system.log" 2>/dev/null; then
    say "$node has no JMX of its own on $addr:$JMX_PORT; no nodetool figures for it"
    NT_HOST="127.0.0.254" # nothing listens there: nodetool gets no answer and the SSTable count is used
  fi
}

# stop_node NODE LOG_COPY: keeps the node's system.log as LOG_COPY and stops it.
stop_node() {
  cp "$WORK/$1/logs/system.log" "$2" 2>/dev/null || true
  stop_pid "$NODE_PID"
  forget_pid "$NODE_PID"
}

# Complete SSTables of keyspace1.standard1 (both write a TOC last: Cassandra nb-N-big-TOC.txt, Charybdis cb-N-TOC.txt).
sstable_count() {
  find "$DATA_DIR" -path '*keyspace1/standard1*' -name '*TOC.txt' ! -name 'tmp*' ! -path '*/snapshots/*' ! -path '*/backups/*' 2>/dev/null | wc -l
}
data_mib() { du -sm "$DATA_DIR" 2>/dev/null | awk '{print $1}'; }

# ---------------------------------------------------------------- loads

STRESS_NODE=""
declare -A R # R[node.load.field]
CMDS=()      # load|command line (recorded once, from the first node)

shq() { # the arguments as one shell-quoted line (double quotes only where needed)
  local a out=""
  for a in "$@"; do
    case "$a" in *[!A-Za-z0-9=._/,:+-]*) out+=" \"$a\"" ;; *) out+=" $a" ;; esac
  done
  echo "${out# }"
}

# run_load NODE LOAD ARGS... : runs the loader, keeps its output, parses its Results block.
run_load() {
  local node="$1" load="$2"
  shift 2
  local args=("$@" -node "$STRESS_NODE" -port "native=$PORT" "jmx=$JMX_PORT")
  local log="$OUT/$node-$load.txt" rc=0
  local shown="bin/charybdis-stress $(shq "${args[@]}")"
  say "$node $load: $shown"
  if [ "$node" = "${FIRST_NODE}" ]; then CMDS+=("$load|bin/charybdis-stress $(shq "$@")"); fi
  { echo "\$ $shown"; echo "# started $(date -u +%FT%TZ); load avg: $(cut -d' ' -f1-3 /proc/loadavg)"; } >"$log"
  timeout 900 "$REPO/bin/charybdis-stress" "${args[@]}" >>"$log" 2>&1 || rc=$?
  echo "# finished $(date -u +%FT%TZ) rc=$rc; load avg: $(cut -d' ' -f1-3 /proc/loadavg)" >>"$log"
  R[$node.$load.rc]=$rc
  R[$node.$load.load]=$(cut -d' ' -f1 /proc/loadavg)
  parse_results "$node" "$load" "$log"
  if [ "$rc" != 0 ]; then say "$node $load: the loader exited with $rc (see ${log#"$REPO"/})"; fi
}

# Fields: rate mean p50 p95 p99 p999 max errors, and for mixed loads READ_p99 / WRITE_p99 etc.
parse_results() {
  local node="$1" load="$2" log="$3" line key val
  while IFS='|' read -r key val; do
    R[$node.$load.$key]=$val
  done < <(awk '
    /^Results:/ { on = 1; next }
    !on { next }
    function num(s) { gsub(/,/, "", s); return s }
    function emit(key,   rest, n, parts, i, kv) {
      rest = $0; sub(/^[^:]*:[ ]*/, "", rest)
      split(rest, parts, " "); print key "|" num(parts[1])
      if (match(rest, /\[.*\]/)) {
        inner = substr(rest, RSTART + 1, RLENGTH - 2)
        n = split(inner, kv, ", ")
        for (i = 1; i <= n; i++) { split(kv[i], p2, ": "); split(p2[2], v2, " "); print p2[1] "_" key "|" num(v2[1]) }
      }
    }
    /^Op rate/ { emit("rate") }
    /^Latency mean/ { emit("mean") }
    /^Latency median/ { emit("p50") }
    /^Latency 95th/ { emit("p95") }
    /^Latency 99th/ { emit("p99") }
    /^Latency 99.9th/ { emit("p999") }
    /^Latency max/ { emit("max") }
    /^Total errors/ { emit("errors") }
  ' "$log")
}


# quiesce NODE KEY MAX_S: seconds from now until no compaction is pending or running, into R[NODE.KEY]
# (">MAX_S" if it did not get there), with the method in R[NODE.KEY_method].
quiesce() {
  local node="$1" key="$2" max="$3" t0 now pending count last="" stable_since="" window=6 el method
  t0=$(date +%s.%N)
  pending=$(pending_compactions || true)
  if [ -n "$pending" ]; then
    method="nodetool compactionstats polled until 'pending tasks' is 0 and no compaction is active"
    while :; do
      el=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
      if [ "${pending:-x}" = 0 ]; then break; fi
      if awk -v e="$el" -v m="$max" 'BEGIN { exit !(e > m) }'; then el=">$max (pending ${pending:-?})"; break; fi
      sleep 1
      pending=$(pending_compactions || true)
    done
  else
    # No answer from nodetool: poll the table's SSTable count until it has not changed for $window s.
    method="SSTable count of keyspace1.standard1 on disk unchanged for ${window}s (nodetool gave no answer)"
    while :; do
      count=$(sstable_count)
      now=$(date +%s.%N)
      if [ "$count" != "$last" ]; then last="$count"; stable_since="$now"; fi
      if awk -v a="$stable_since" -v b="$now" -v w="$window" 'BEGIN { exit !(b - a >= w) }'; then
        el=$(awk -v a="$t0" -v b="$stable_since" 'BEGIN { printf "%.1f", (b - a < 0 ? 0 : b - a) }')
        break
      fi
      if awk -v a="$t0" -v b="$now" -v m="$max" 'BEGIN { exit !(b - a > m) }'; then el=">$max"; break; fi
      sleep 1
    done
  fi
  R[$node.$key]=$el
  R[$node.${key}_method]=$method
  say "$node $key: ${el}s ($method), $(sstable_count) SSTables"
}

# sstables_per_read NODE PREFIX: p99 and max of SSTables read per read of keyspace1.standard1 (nodetool
# tablehistograms) into R[NODE.PREFIX_p99] and R[NODE.PREFIX_max]; the table's SSTable count into R[NODE.PREFIX_count].
sstables_per_read() {
  local node="$1" prefix="$2" f="$OUT/$1-$2-tablehistograms.txt"
  nodetool tablehistograms keyspace1 standard1 >"$f" 2>&1 || true
  R[$node.${prefix}_p99]=$(awk '$1 == "99%" && NF >= 6 {print $4}' "$f")
  R[$node.${prefix}_max]=$(awk '$1 == "Max" && NF >= 6 {print $4}' "$f")
  R[$node.${prefix}_count]=$(sstable_count)
}

# ---------------------------------------------------------------- report helpers

fmt() { # value -> as printed, or "–"
  local v="${1:-}"
  [ -n "$v" ] && echo "$v" || echo "–"
}
ratio() { # charybdis / cassandra
  awk -v x="${1:-}" -v c="${2:-}" 'BEGIN {
    if (x == "" || c == "" || x !~ /^[0-9.]+$/ || c !~ /^[0-9.]+$/ || c + 0 == 0) { print "–"; exit }
    printf "%.2f", x / c }'
}
size_mib() { # 1G, 512M, 2048m -> MiB
  local v="$1"
  case "$v" in
    *[Gg]) echo $((${v%?} * 1024)) ;;
    *[Mm]) echo "${v%?}" ;;
    *) echo 1024 ;;
  esac
}
os_release() { (. /etc/os-release 2>/dev/null && echo "$PRETTY_NAME") || uname -s; }
PHYS_MIB=$(awk '/^MemTotal:/ {print int($2 / 1024)}' /proc/meminfo)

# The machine, one line of Markdown.
machine_line() {
  echo "$(nproc) cores ($(awk -F': ' '/^model name/ {print $2; exit}' /proc/cpuinfo)), $((PHYS_MIB / 1024)) GiB memory ($PHYS_MIB MiB), $(os_release), kernel $(uname -r)"
}

# Charybdis's revision, noting uncommitted source changes.
charybdis_revision() {
  local rev dirty jar when
  rev=$(git -C "$REPO" rev-parse --short HEAD 2>/dev/null || echo "?")
  dirty=$(git -C "$REPO" status --porcelain -- node storage protocol cluster stress pom.xml 2>/dev/null | wc -l)
  jar=$(ls "$REPO"/node/target/charybdis-node-*.jar 2>/dev/null | grep -v -e sources -e tests | head -1)
  when=$(date -u -r "$jar" +'%Y-%m-%d %H:%M UTC' 2>/dev/null || echo "?")
  echo "$rev$([ "$dirty" -gt 0 ] && echo " (working tree with $dirty uncommitted source changes; node jar built $when)")"
}

# replace_block NAME REPORT: puts REPORT (which starts with <!-- bench:NAME:begin ...> and ends with
# <!-- bench:NAME:end -->) into BENCHMARKS.md in place of the block of that name, or at the end if there is none.
replace_block() {
  local name="$1" report="$2" md="$REPO/BENCHMARKS.md"
  if grep -q "<!-- bench:$name:begin" "$md"; then
    awk -v f="$report" -v b="<!-- bench:$name:begin" -v e="<!-- bench:$name:end -->" '
      index($0, b) == 1 { while ((getline l < f) > 0) print l; skip = 1; next }
      index($0, e) == 1 { skip = 0; next }
      !skip { print }' "$md" >"$md.tmp"
  else
    { cat "$md"; echo; cat "$report"; } >"$md.tmp"
  fi
  mv "$md.tmp" "$md"
  say "updated BENCHMARKS.md"
}
