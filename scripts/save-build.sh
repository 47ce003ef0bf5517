#!/usr/bin/env bash
# Save the current release build of pbrain-wuzi under a name, for later matches.
#
#   scripts/save-build.sh NAME        -> builds/NAME/pbrain-wuzi (+ builds/NAME/INFO)
#
# The builds folder is ./builds unless WUZI_BUILDS names another. Typical loop:
#   scripts/save-build.sh base        # before a change
#   ... edit ...
#   scripts/sprt.sh base              # is the change better than "base"?
set -euo pipefail
cd "$(dirname "$0")/.."

name=${1:?usage: scripts/save-build.sh NAME}
case "$name" in
  */* | .* | "") echo "save-build: NAME must be a plain name, got '$name'" >&2; exit 2 ;;
esac
builds=${WUZI_BUILDS:-builds}
target=${CARGO_TARGET_DIR:-target}
exe=pbrain-wuzi
[ -n "${OS:-}" ] && [ "$OS" = "Windows_NT" ] && exe=pbrain-wuzi.exe

cargo build --release --bin pbrain-wuzi
mkdir -p "$builds/$name"
cp "$target/release/$exe" "$builds/$name/$exe"
{
  echo "name: $name"
  echo "saved: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "commit: $(git describe --always --dirty 2>/dev/null || echo unknown)"
} > "$builds/$name/INFO"
echo "saved $builds/$name/$exe"
