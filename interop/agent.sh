#!/usr/bin/env bash
# Serves one of UWA's GDL-II agents as a GGP HTTP player, for ggp match / ggp tournament:
#   interop/agent.sh hyper --port 9200 [--host H] [--name NAME] [-v]
#   ggp match rulesheets/kuhn.rcy --player http://127.0.0.1:9200 --player pimc
# AGENT: hyper (HyperPlay), ahyperlt, ophyper, imprandom, random, legal. Builds first when needed
# (interop/build.sh); the agents write their move logs to $GGP_PEERS/agents/matches.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${GGP_PEERS:-$(dirname "$here")/.peers}
"$here/build.sh" "$out" >/dev/null
mkdir -p "$out/agents"
cd "$out/agents"
exec java -cp "$(cat "$out/uwa/classpath"):$out/interop/uwa" ggpinterop.AgentServer "$@"
