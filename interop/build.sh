#!/usr/bin/env bash
# Builds the third-party GDL-II systems of ../shared/tools/peers (the Dresden GameController, UWA's
# fork with HyperPlay) and this folder's Java programs against them:
#   OUT/dresden, OUT/uwa            the peers, built by ../shared/tools/peers/build.sh
#   OUT/interop/dresden             ProverTrace (the Dresden GameController's prover on playouts)
#   OUT/interop/uwa                 AgentServer (a UWA agent as a GGP HTTP player)
# Usage: interop/build.sh [OUT]   (default OUT: .peers in the project root). Does nothing when OUT
# is up to date with the sources. Needs javac (Debian: default-jdk-headless; installed with
# apt-get when missing and allowed). About 10-30 s.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
peers=${GGP_PEERS_SOURCE:-$root/../shared/tools/peers}
out_arg=${1:-$root/.peers}
out=$(mkdir -p "$out_arg" && cd "$out_arg" && pwd)
if [ ! -f "$peers/build.sh" ]; then
  echo "interop/build.sh: $peers/build.sh is absent (the project's ../shared material)" >&2
  exit 1
fi
if ! command -v javac >/dev/null; then
  sudo=""; [ "$(id -u)" -eq 0 ] || sudo="sudo -n"
  { $sudo apt-get update -qq && $sudo apt-get install -y -qq default-jdk-headless; } >/dev/null 2>&1 || true
  command -v javac >/dev/null || { echo "interop/build.sh: needs javac (Debian: apt-get install default-jdk-headless)" >&2; exit 1; }
fi
stamp=$( (cat "$peers/build.sh" "$here"/src/ggpinterop/*.java; javac -version 2>&1) | sha256sum | cut -d' ' -f1)
if [ -f "$out/interop/stamp" ] && [ "$(cat "$out/interop/stamp")" = "$stamp" ] \
   && [ -f "$out/uwa/classpath" ] && [ -d "$out/dresden/tud" ]; then
  echo "up to date: $out"
  exit 0
fi
bash "$peers/build.sh" "$out" >/dev/null
rm -rf "$out/interop" && mkdir -p "$out/interop/dresden" "$out/interop/uwa"
flags=(-nowarn -encoding UTF-8 --release 8 -Xlint:none)
javac "${flags[@]}" -d "$out/interop/dresden" -cp "$out/dresden" "$here/src/ggpinterop/ProverTrace.java" 2>&1 | grep -v '^Note:' || true
javac "${flags[@]}" -d "$out/interop/uwa" -cp "$(cat "$out/uwa/classpath")" \
  "$here/src/ggpinterop/AgentServer.java" "$here/src/ggpinterop/SExpr.java" \
  "$here/src/ggpinterop/SortedSeesReasonerFactory.java" 2>&1 | grep -v '^Note:' || true
[ -f "$out/interop/dresden/ggpinterop/ProverTrace.class" ] && [ -f "$out/interop/uwa/ggpinterop/AgentServer.class" ] \
  || { echo "interop/build.sh: compiling interop/src failed" >&2; exit 1; }
echo "$stamp" > "$out/interop/stamp"
echo "built into $out"
