#!/usr/bin/env bash
# Sourced by the launchers and .ci/run: finds a JDK 21 or newer and exports JAVA_HOME.
# Order: $JAVA_HOME, `java` on PATH, then the usual install folders. Fails with a clear message if none.

charybdis_java_major() { # $1 = path to a java binary; prints its feature version
  "$1" -XshowSettings:properties -version 2>&1 | awk -F'= ' '/java.specification.version/ {print $2; exit}' | cut -d. -f1
}

charybdis_find_java() {
  local candidates=()
  [ -n "${JAVA_HOME:-}" ] && candidates+=("$JAVA_HOME")
  if command -v java >/dev/null 2>&1; then
    candidates+=("$(dirname "$(dirname "$(readlink -f "$(command -v java)")")")")
  fi
  local d
  for d in /usr/lib/jvm/* /opt/java/* /opt/jdk* /usr/local/jdk* /Library/Java/JavaVirtualMachines/*/Contents/Home "$HOME"/.sdkman/candidates/java/* "$HOME"/.jdks/*; do
    [ -d "$d" ] && candidates+=("$d")
  done
  local c major
  for c in "${candidates[@]}"; do
    [ -x "$c/bin/java" ] && [ -x "$c/bin/javac" ] || continue
    major=$(charybdis_java_major "$c/bin/java")
    if [ -n "$major" ] && [ "$major" -ge 21 ] 2>/dev/null; then
      echo "$c"
      return 0
    fi
  done
  return 1
}

if ! CHARYBDIS_JAVA_HOME=$(charybdis_find_java); then
  echo "Charybdis needs a JDK 21 or newer, and none was found (looked at JAVA_HOME, java on PATH, /usr/lib/jvm, /opt)." >&2
  echo "Install one (e.g. 'apt-get install openjdk-21-jdk-headless') or set JAVA_HOME to it." >&2
  return 1 2>/dev/null || exit 1
fi
export JAVA_HOME="$CHARYBDIS_JAVA_HOME"
export CHARYBDIS_JAVA_MAJOR=$(charybdis_java_major "$JAVA_HOME/bin/java")
