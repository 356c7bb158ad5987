#!/usr/bin/env bash
# Builds the CardStock conformance runner under Mono:
#   OUT/runner.exe   the CardStock engine (back-ported to C# 7 for Mono's mcs) with the ANTLR 4.5.3
#                    C# runtime and this folder's Runner.cs and Stats.cs, in one executable.
# Usage: conformance/cardstock/build.sh [OUT]   (default OUT: conformance/cardstock/.build)
# The engine's source is read from ../shared/tools/cardstock/src (or $CARDSTOCK_SOURCE), copied to
# OUT/src, patched with cardstock-mono.patch, and compiled with mcs. Does nothing when OUT is up to
# date with the sources. Needs mono-mcs and mono-runtime (Debian). About 15-30 s.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
source_dir=${CARDSTOCK_SOURCE:-$root/../shared/tools/cardstock/src}
out_arg=${1:-$here/.build}
if ! command -v mcs >/dev/null || ! command -v mono >/dev/null; then
  echo "conformance/cardstock/build.sh: needs Mono's C# compiler and runtime, which are absent" >&2
  echo "  (Debian: apt-get install -y mono-mcs mono-runtime)" >&2
  exit 3
fi
if [ ! -d "$source_dir/CardStock" ] || [ ! -d "$source_dir/CardStockXam/Antlr4/Runtime" ]; then
  echo "conformance/cardstock/build.sh: the CardStock source is absent at $source_dir" >&2
  echo "  (the project's ../shared/tools/cardstock/src, or set CARDSTOCK_SOURCE)" >&2
  exit 1
fi
mkdir -p "$out_arg"
out=$(cd "$out_arg" && pwd)

# The engine's files the runner needs. Left out: Program.cs (top-level statements), ParseEngine.cs
# and Scoring/ but World.cs (experiments, heuristics, genetic search: the runner plays the games
# itself), the AI players but the random one, DotVisualization.cs, and the .antlr/ copies.
engine=(
  CardEngine/Card.cs CardEngine/CardCollection.cs CardEngine/CardGame.cs CardEngine/CardStorage.cs
  CardEngine/DefaultStorage.cs CardEngine/Owner.cs CardEngine/Player.cs CardEngine/PointMap.cs
  CardEngine/StageCycle.cs CardEngine/Team.cs CardEngine/Tree.cs
  FreezeFrame/CardGrouping.cs FreezeFrame/CardLocReference.cs FreezeFrame/GameAction.cs
  FreezeFrame/GameIterator.cs FreezeFrame/IntStorageReference.cs FreezeFrame/IterItem.cs
  FreezeFrame/IteratingTree.cs FreezeFrame/PointStorageReference.cs FreezeFrame/RecycleVariables.cs
  FreezeFrame/StrStorageReference.cs FreezeFrame/Transcript.cs
  Players/AIPlayer.cs Players/Perspective.cs Players/RandomPlayer.cs
  Scoring/World.cs ThreadSafeRandom.cs
  RecycleLexer.cs RecycleParser.cs RecycleListener.cs RecycleBaseListener.cs
)

stamp=$( (cd "$source_dir" && find . -type f -print0 | LC_ALL=C sort -z | xargs -0 sha256sum;
          cat "$here/build.sh" "$here/cardstock-mono.patch" "$here/Runner.cs" "$here/Stats.cs";
          mcs --version) | sha256sum | cut -d' ' -f1)
if [ -f "$out/stamp" ] && [ "$(cat "$out/stamp")" = "$stamp" ] && [ -f "$out/runner.exe" ]; then
  echo "up to date: $out/runner.exe"
  exit 0
fi
rm -rf "$out/src" "$out/stamp" "$out/runner.exe"
cp -r "$source_dir" "$out/src"
chmod -R u+w "$out/src"
patch --quiet --forward -p1 -d "$out/src" < "$here/cardstock-mono.patch"
runtime=()
while IFS= read -r -d '' f; do runtime+=("$f"); done < <(cd "$out/src" && find CardStockXam/Antlr4/Runtime -name '*.cs' \
  -not -path '*/Properties/*' -print0 | LC_ALL=C sort -z)
(
  cd "$out/src"
  mcs -target:exe -out:"$out/runner.exe" -optimize+ -nowarn:0108,0114,0162,0168,0169,0219,0414,0618,0649,0659,0661,3021 \
    -r:System.Core -main:CardStock.Conformance.Runner \
    "${runtime[@]}" "${engine[@]/#/CardStock/}" "$here/Runner.cs" "$here/Stats.cs"
) > "$out/mcs.log" 2>&1 || { cat "$out/mcs.log" >&2; echo "conformance/cardstock/build.sh: mcs failed" >&2; exit 1; }
echo "$stamp" > "$out/stamp"
echo "built: $out/runner.exe"
