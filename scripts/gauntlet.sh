#!/usr/bin/env bash
# The current build against several opponents, each a saved build name or an engine path.
#
#   scripts/gauntlet.sh OPPONENT... [-- more wuzi-match options]
#   e.g. scripts/gauntlet.sh base v0.1 /opt/engines/pbrain-rapfi -- --tc 5000/120000
#
# Settings (environment, with defaults): RULE=0 SIZE=15 TC=1000/30000 GAMES=100
# CONCURRENCY=2 OPENINGS=tests/data/balanced_freestyle_15.txt JSONL=gauntlet.jsonl
set -euo pipefail
cd "$(dirname "$0")/.."

builds=${WUZI_BUILDS:-builds}
target=${CARGO_TARGET_DIR:-target}
opponents=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do
  opponents+=("$1")
  shift
done
[ "${1:-}" = "--" ] && shift
if [ ${#opponents[@]} -eq 0 ]; then
  echo "usage: scripts/gauntlet.sh OPPONENT... [-- wuzi-match options]" >&2
  exit 2
fi

cargo build --release --bin pbrain-wuzi --bin wuzi-match
current=$(mktemp -d "${TMPDIR:-/tmp}/wuzi-gauntlet.XXXXXX")
trap 'rm -rf "$current"' EXIT
cp "$target/release/pbrain-wuzi" "$current/pbrain-wuzi"

args=(--engine "cmd='$current/pbrain-wuzi'" name=new)
for opponent in "${opponents[@]}"; do
  if [ -x "$builds/$opponent/pbrain-wuzi" ]; then
    args+=(--engine "cmd='$builds/$opponent/pbrain-wuzi'" name="$opponent")
  elif [ -x "$opponent" ]; then
    args+=(--engine "cmd='$opponent'" dir="$(dirname "$opponent")")
  else
    echo "gauntlet: '$opponent' is neither a saved build in $builds nor an executable" >&2
    exit 2
  fi
done

"$target/release/wuzi-match" "${args[@]}" --gauntlet \
  --rule "${RULE:-0}" --size "${SIZE:-15}" --tc "${TC:-1000/30000}" \
  --openings "${OPENINGS:-tests/data/balanced_freestyle_15.txt}" --random-order --symmetry \
  --games "${GAMES:-100}" --concurrency "${CONCURRENCY:-2}" \
  --jsonl "${JSONL:-gauntlet.jsonl}" \
  "$@"
