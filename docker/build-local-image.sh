#!/usr/bin/env bash
# Builds the Charybdis image from docker/Dockerfile on a machine that cannot pull images (CI and the test
# machines here): the Dockerfile's base images are replaced by two made locally with `docker import` from this
# machine's own files, the node's jars come prebuilt from node/target (DIST=prebuilt), and cqlsh's wheels are
# downloaded here with pip beforehand (CQLSH_WHEELS=context), so the build needs neither a registry nor Maven
# Central (only PyPI through pip, once: the wheels are kept in docker/target/cqlsh-wheels). Users build from the
# public defaults instead:
#     docker build -f docker/Dockerfile -t charybdis .
#
#   docker/build-local-image.sh [TAG]        (default: charybdis:local)
#
# Made once per engine and reused:
#   charybdis-local/base:3           bash, coreutils, awk, hostname and the glibc libraries they and Java need, and
#                                    this machine's python3 (its standard library, venv and the libraries it loads)
#                                    for cqlsh: Debian's /usr/bin/python3 when there is one (what the public build
#                                    installs), else python3 on PATH; CHARYBDIS_IMAGE_PYTHON names another
#   charybdis-local/jdk:<major>-2    the same plus $JAVA_HOME (a JDK 21+, found by bin/java-env.sh) as /opt/java/openjdk
# RUN steps use the host network (engines here run with --bridge=none).
# Needs: a Docker engine (docker / DOCKER_HOST), python3 3.8+ with venv (python3-venv on Debian), and the node
# built: ./mvnw -B -pl node -am package -DskipTests.
set -euo pipefail

REPO="$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)"
TAG="${1:-charybdis:local}"
log() { echo "build-local-image: $*" >&2; }
die() { log "$*"; exit 1; }

# shellcheck source=bin/java-env.sh
source "$REPO/bin/java-env.sh"

# BuildKit skips the stages an image does not need (the Maven stage here); a 23+ client needs the buildx plugin for
# it, a 20.10 client (Debian's docker.io, /usr/bin/docker) has it built in.
pick_docker() {
  local c major
  for c in "${DOCKER:-docker}" /usr/bin/docker; do
    command -v "$c" >/dev/null 2>&1 || continue
    major=$("$c" version --format '{{.Client.Version}}' 2>/dev/null | cut -d. -f1) || continue
    if [ "${major:-0}" -lt 23 ] 2>/dev/null || "$c" buildx version >/dev/null 2>&1; then
      echo "$c"
      return 0
    fi
  done
  return 1
}
DOCKER_CMD=$(pick_docker) || die "no docker client with BuildKit (a 20.10 client, or docker buildx) found"
export DOCKER_BUILDKIT=1
"$DOCKER_CMD" info >/dev/null 2>&1 || die "no Docker engine answers (DOCKER_HOST=${DOCKER_HOST:-unset})"

# Copies files and the shared libraries they load into a root file system.
add_with_libs() {
  local root="$1" f lib
  shift
  for f in "$@"; do
    [ -e "$f" ] || continue
    mkdir -p "$root$(dirname "$f")"
    cp -aL "$f" "$root$f"
    for lib in $(ldd "$f" 2>/dev/null | awk '/=>/ {print $3} /^\s*\/lib/ {print $1}'); do
      if [ -f "$lib" ] && [ ! -e "$root$lib" ]; then
        mkdir -p "$root$(dirname "$lib")"
        cp -L "$lib" "$root$lib"
      fi
    done
  done
}

make_rootfs() {
  local root="$1" b
  mkdir -p "$root"/{bin,usr/bin,etc,tmp,proc,sys,dev,lib64}
  chmod 1777 "$root/tmp"
  # what the entry point and cql-health use, and what ./mvnw needs in the Maven stage
  local tools=(bash sh cat chown chmod mkdir rm ls head tail od dd tr id env sleep hostname awk mawk cut sort sed grep
    uname dirname basename mktemp mv cp ln readlink wc touch expr printf find xargs tar gzip true false test)
  for b in "${tools[@]}"; do
    for dir in /bin /usr/bin; do
      [ -e "$dir/$b" ] && add_with_libs "$root" "$dir/$b"
    done
  done
  # glibc as a Java runtime and the node's native libraries (netty, zstd, lz4, jffi) load it
  for b in ld-linux-x86-64.so.2 libc.so.6 libm.so.6 libdl.so.2 libpthread.so.0 librt.so.1 libz.so.1 libgcc_s.so.1 \
    libstdc++.so.6 libnss_files.so.2 libnss_dns.so.2 libresolv.so.2; do
    for dir in /lib64 /lib/x86_64-linux-gnu /usr/lib/x86_64-linux-gnu; do
      [ -e "$dir/$b" ] && add_with_libs "$root" "$dir/$b"
    done
  done
  echo 'root:x:0:0:root:/root:/bin/bash' >"$root/etc/passwd"
  echo 'root:x:0:' >"$root/etc/group"
  printf 'passwd: files\ngroup: files\nhosts: files dns\n' >"$root/etc/nsswitch.conf"
}

# The Python cqlsh runs on: an interpreter with ensurepip (so that `python3 -m venv` works in the image).
find_python() {
  local c
  for c in "${CHARYBDIS_IMAGE_PYTHON:-}" /usr/bin/python3 python3; do
    [ -n "$c" ] && command -v "$c" >/dev/null 2>&1 || continue
    if "$c" -c 'import sys, ensurepip, venv; sys.exit(sys.version_info < (3, 8))' >/dev/null 2>&1; then
      echo "$c"
      return 0
    fi
  done
  return 1
}

# Copies the interpreter (at its own path, with /usr/bin/python3 pointing to it), its standard library with the
# compiled modules and the shared libraries they load, and Debian's wheels for ensurepip, into a root file system.
add_python() {
  local root="$1" py="$2" exe stdlib so
  { read -r exe; read -r stdlib; } < <("$py" -c 'import os, sys, sysconfig
print(os.path.realpath(sys.executable)); print(sysconfig.get_path("stdlib"))')
  [ -x "$exe" ] && [ -f "$stdlib/os.py" ] || die "cannot find $py's interpreter ($exe) or standard library ($stdlib)"
  add_with_libs "$root" "$exe"
  if [ "$exe" != /usr/bin/python3 ]; then
    mkdir -p "$root/usr/bin"
    ln -sf "$exe" "$root/usr/bin/python3"
  fi
  mkdir -p "$root$stdlib"
  tar -C "$stdlib" -ch --exclude=./site-packages --exclude=./dist-packages --exclude=./test --exclude=./idlelib \
    --exclude=./tkinter --exclude=./turtledemo --exclude='./config-*' . | tar -C "$root$stdlib" -x
  while IFS= read -r so; do
    add_with_libs "$root" "$so"
  done < <(find "$root$stdlib" -name '*.so' -printf "${stdlib}/%P\n")
  if [ -d /usr/share/python-wheels ] && [ "${exe#/usr/}" != "$exe" ]; then # Debian's ensurepip takes pip from here
    mkdir -p "$root/usr/share"
    cp -a /usr/share/python-wheels "$root/usr/share/"
  fi
}

import_image() { # tag rootfs change...
  local tag="$1" root="$2"
  shift 2
  tar -C "$root" -c . | "$DOCKER_CMD" import "$@" - "$tag" >/dev/null
}

work="$REPO/docker/target/local-image"
rm -rf "$work"
mkdir -p "$work"

PYTHON=$(find_python) || die "no python3 3.8+ with venv found for cqlsh (on Debian: apt-get install python3-venv)"
BASE=charybdis-local/base:3
if ! "$DOCKER_CMD" image inspect "$BASE" >/dev/null 2>&1; then
  log "making $BASE from this machine's files ($("$PYTHON" --version 2>&1) from $PYTHON)"
  make_rootfs "$work/base"
  add_python "$work/base" "$PYTHON"
  import_image "$BASE" "$work/base" --change 'ENV PATH=/usr/local/bin:/usr/bin:/bin'
fi

JDK="charybdis-local/jdk:$CHARYBDIS_JAVA_MAJOR-2"
if ! "$DOCKER_CMD" image inspect "$JDK" >/dev/null 2>&1; then
  log "making $JDK from $JAVA_HOME"
  make_rootfs "$work/jdk"
  mkdir -p "$work/jdk/opt/java"
  cp -rL "$(readlink -f "$JAVA_HOME")" "$work/jdk/opt/java/openjdk" # -L: Debian links cacerts to /etc
  add_with_libs "$work/jdk" "$JAVA_HOME"/bin/java "$JAVA_HOME"/bin/jlink "$JAVA_HOME"/lib/server/libjvm.so \
    "$JAVA_HOME"/lib/lib{java,jli,zip,nio,net,jimage,verify,management,management_ext,extnet,rmi}.so
  rm -rf "$work/jdk$JAVA_HOME"
  import_image "$JDK" "$work/jdk" --change 'ENV JAVA_HOME=/opt/java/openjdk' \
    --change 'ENV PATH=/opt/java/openjdk/bin:/usr/local/bin:/usr/bin:/bin'
fi

jar=$(ls "$REPO"/node/target/charybdis-node-*.jar 2>/dev/null | grep -v -- '-sources\|-tests' | head -1) || true
[ -n "$jar" ] && [ -d "$REPO/node/target/lib" ] ||
  die "the node is not built; run: ./mvnw -B -pl node -am package -DskipTests"

# cqlsh and its libraries as wheels for the image's Python (only wheels: the image builds nothing), in the versions
# the Dockerfile pins, kept between builds.
arg_default() { awk -F= -v n="$1" '$1 == "ARG " n {print $2; exit}' "$REPO/docker/Dockerfile"; }
cqlsh_version=$(arg_default CQLSH_VERSION)
driver_version=$(arg_default CASSANDRA_DRIVER_VERSION)
[ -n "$cqlsh_version" ] && [ -n "$driver_version" ] || die "docker/Dockerfile names no CQLSH_VERSION or CASSANDRA_DRIVER_VERSION"
py_tag=$("$PYTHON" -c 'import sys; print("py%d.%d" % sys.version_info[:2])')
wheels="$REPO/docker/target/cqlsh-wheels/$py_tag-cqlsh-$cqlsh_version-driver-$driver_version"
if [ ! -f "$wheels/.complete" ]; then
  log "downloading cqlsh $cqlsh_version and cassandra-driver $driver_version wheels for $py_tag"
  rm -rf "$wheels"
  pip=("$PYTHON" -m pip)
  if ! "${pip[@]}" --version >/dev/null 2>&1; then
    "$PYTHON" -m venv "$work/pip" || die "$PYTHON has no pip and cannot make a venv with one"
    pip=("$work/pip/bin/pip")
  fi
  "${pip[@]}" download -q --disable-pip-version-check --retries 5 --timeout 60 --only-binary=:all: -d "$wheels" \
    "cqlsh==$cqlsh_version" "cassandra-driver==$driver_version" || die "could not download cqlsh's wheels from PyPI"
  touch "$wheels/.complete"
fi

ctx="$work/context"
mkdir -p "$ctx/dist/lib" "$ctx/docker" "$ctx/conf" "$ctx/wheels"
cp "$wheels"/*.whl "$ctx/wheels/"
cp "$jar" "$ctx/dist/charybdis-node.jar"
cp "$REPO"/node/target/lib/*.jar "$ctx/dist/lib/"
cp -r "$REPO/docker/Dockerfile" "$REPO/docker/image" "$ctx/docker/"
cp "$REPO/conf/charybdis.yaml" "$ctx/conf/"

log "building $TAG (JDK_IMAGE=$JDK BASE_IMAGE=$BASE DIST=prebuilt CQLSH_WHEELS=context)"
"$DOCKER_CMD" build -q --network host -f "$ctx/docker/Dockerfile" --build-arg "JDK_IMAGE=$JDK" --build-arg "BASE_IMAGE=$BASE" \
  --build-arg DIST=prebuilt --build-arg CQLSH_WHEELS=context -t "$TAG" "$ctx" >/dev/null
rm -rf "$work/base" "$work/jdk" "$work/pip"
log "built $TAG"
