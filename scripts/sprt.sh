#!/usr/bin/env bash
# Is the current build stronger than a saved one? Builds release, then plays the current
# pbrain-wuzi against builds/BASE/pbrain-wuzi under SPRT until the test decides.
#
#   scripts/sprt.sh BASE [more wuzi-match options]
#
# Save a base first with scripts/save-build.sh BASE. Settings (environment, with defaults):
#   RULE=0 SIZE=15 TC=1000/30000 GAMES=20000 CONCURRENCY=2
#   OPENINGS=tests/data/balanced_freestyle_15.txt   (pick the file for your rule and size)
#   SPRT=elo0=0,elo1=5,alpha=0.05,beta=0.05
#   JSONL=sprt-BASE.jsonl                           (one JSON line per game)
# Extra arguments go to wuzi-match as they are, e.g. `scripts/sprt.sh base --reuse`.
# Exit status is wuzi-match's; the verdict is the last "SPRT ..." line.
set -euo pipefail
cd "$(dirname "$0")/.."

base=${1:?usage: scripts/sprt.sh BASE [wuzi-match options]}
shift
builds=${WUZI_BUILDS:-builds}
target=${CARGO_TARGET_DIR:-target}
base_exe="$builds/$base/pbrain-wuzi"
if [ ! -x "$base_exe" ]; then
  echo "sprt: no saved build $base_exe (save one with scripts/save-build.sh $base)" >&2
  exit 2
fi

cargo build --release --bin pbrain-wuzi --bin wuzi-match
# Play a frozen copy, so that rebuilding during the run does not change the engine under test.
current=$(mktemp -d "${TMPDIR:-/tmp}/wuzi-sprt.XXXXXX")
trap 'rm -rf "$current"' EXIT
cp "$target/release/pbrain-wuzi" "$current/pbrain-wuzi"

"$target/release/wuzi-match" \
  --engine "cmd='$current/pbrain-wuzi'" name=new \
  --engine "cmd='$base_exe'" name="$base" \
  --rule "${RULE:-0}" --size "${SIZE:-15}" --tc "${TC:-1000/30000}" \
  --openings "${OPENINGS:-tests/data/balanced_freestyle_15.txt}" --random-order --symmetry \
  --games "${GAMES:-20000}" --concurrency "${CONCURRENCY:-2}" \
  --sprt "${SPRT:-elo0=0,elo1=5,alpha=0.05,beta=0.05}" \
  --jsonl "${JSONL:-sprt-$base.jsonl}" \
  "$@"
