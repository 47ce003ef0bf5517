#!/usr/bin/env bash
# Builds pbrain-wuzi.exe for 64-bit Windows on this Linux machine and checks it under Wine
# against the Linux build of the same source:
#   1. the bench's node count, the search's signature, must be the same;
#   2. a fixed-depth protocol session sent with CRLF line ends must get the same replies
#      (nodes/s and times aside), and neither build may write to stderr;
#   3. with wuzi-match options after `--`, the .exe plays the Linux build, with the clock judged
#      as c-gomoku-cli judges it (--strict-clock), e.g.
#        scripts/windows-check.sh -- --rule 0 --tc 1000/6000 --games 100 \
#          --openings tests/data/balanced_freestyle_15.txt --concurrency 2 --mem-limit 350
#
# Needs the Windows target and two Debian packages (other distributions have the same):
#   rustup target add x86_64-pc-windows-gnu
#   apt-get install gcc-mingw-w64-x86-64-posix wine64
# The .exe to ship is target/x86_64-pc-windows-gnu/release/pbrain-wuzi.exe; it needs only
# Windows' own DLLs. Wine before 9.0 lacks one of them, bcryptprimitives.dll (Rust's std
# imports ProcessPrng from it, Windows 10 and later), so the checks run a copy of the .exe in
# target/wine/ beside a stand-in built from scripts/wine/ (never ship that DLL). Wine keeps its
# files in target/wine/prefix.
set -euo pipefail
cd "$(dirname "$0")/.."

triple=x86_64-pc-windows-gnu
target=${CARGO_TARGET_DIR:-target}
wine_dir="$target/wine"
native="$target/release/pbrain-wuzi"
exe="$wine_dir/pbrain-wuzi.exe"

missing=""
rustup target list --installed 2>/dev/null | grep -qx "$triple" \
  || missing="$missing\n  rustup target add $triple"
command -v x86_64-w64-mingw32-gcc >/dev/null || missing="$missing\n  apt-get install gcc-mingw-w64-x86-64-posix"
command -v wine >/dev/null || missing="$missing\n  apt-get install wine64"
if [ -n "$missing" ]; then
  printf "windows-check: missing tools; install them with:$missing\n" >&2
  exit 2
fi

match_args=()
if [ $# -gt 0 ]; then
  [ "$1" = "--" ] || { echo "usage: scripts/windows-check.sh [-- wuzi-match options]" >&2; exit 2; }
  shift
  match_args=("$@")
fi

cargo build --release --bins
cargo build --release --bin pbrain-wuzi --target "$triple"
mkdir -p "$wine_dir"
cp "$target/$triple/release/pbrain-wuzi.exe" "$exe"

export WINEDEBUG=-all
WINEPREFIX="$(cd "$wine_dir" && pwd)/prefix"
export WINEPREFIX
[ -d "$WINEPREFIX" ] || echo "windows-check: creating the Wine prefix $WINEPREFIX"
# One Wine server for every run below, so that an engine starts in milliseconds, not seconds.
wineserver -p30 >/dev/null 2>&1 || true

# The .exe answers ABOUT with its name line (kept in $about) when Wine can start it.
starts() {
  about=$(echo ABOUT | wine "$exe" 2>/dev/null || true)
  [[ $about == name=* ]]
}
if ! starts; then
  echo "windows-check: this Wine cannot start the .exe as it is; adding the bcryptprimitives.dll stand-in"
  x86_64-w64-mingw32-gcc -shared -O2 -o "$wine_dir/bcryptprimitives.dll" \
    scripts/wine/bcryptprimitives.c scripts/wine/bcryptprimitives.def
  starts || { echo "windows-check: the .exe still does not start under Wine" >&2; exit 1; }
fi
echo "windows-check: $(wine --version): $about"

# 1. The bench signature.
native_bench=$("$native" bench | tail -1)
windows_bench=$(wine "$exe" bench 2>/dev/null | tr -d '\r' | tail -1)
echo "bench, Linux:   $native_bench"
echo "bench, Windows: $windows_bench"
if [ "${native_bench%% *}" != "${windows_bench%% *}" ]; then
  echo "windows-check: FAIL: the node counts differ" >&2
  exit 1
fi

# 2. A fixed-depth session (deterministic: no clock), CRLF line ends as Piskvork sends them: a
# renju position, a takeback and a turn, a bad command, then a 20x20 freestyle position. Its
# three moves are read before END, since end of input stops a search at once.
session='START 15
INFO rule 4
INFO max_depth 8
BOARD
7,7,2
8,8,1
8,6,2
DONE
TAKEBACK 6,8
TURN 9,9
TURN 99,99
START 20
INFO rule 0
INFO max_depth 7
BOARD
9,9,1
10,10,2
9,11,1
10,9,2
11,10,1
8,10,2
DONE
'
run_session() { # engine command...; prints stdout (\r removed), fails on stderr output
  local err moves=0 line
  err=$(mktemp)
  coproc ENGINE { "$@" 2>"$err"; }
  # From this shell, not a pipe: a coprocess's descriptors do not reach subshells.
  printf '%s' "${session//$'\n'/$'\r\n'}" >&"${ENGINE[1]}"
  while [ $moves -lt 3 ] && IFS= read -r -t 120 line <&"${ENGINE[0]}"; do
    line=${line%$'\r'}
    echo "$line"
    [[ $line =~ ^[0-9]+,[0-9]+$ ]] && moves=$((moves + 1))
  done
  printf 'END\r\n' >&"${ENGINE[1]}"
  wait "$ENGINE_PID" || true
  if [ -s "$err" ]; then
    echo "windows-check: FAIL: $1 wrote to stderr:" >&2
    cat "$err" >&2
    rm -f "$err"
    return 1
  fi
  rm -f "$err"
}
strip_speed() { sed -E 's/ nps [0-9]+ time [0-9]+ms//'; }
native_session=$(run_session "$native" | strip_speed)
windows_session=$(run_session wine "$exe" | strip_speed)
if [ "$native_session" != "$windows_session" ]; then
  echo "windows-check: FAIL: the sessions differ" >&2
  diff <(echo "$native_session") <(echo "$windows_session") >&2 || true
  exit 1
fi
echo "session: the same $(echo "$native_session" | wc -l) lines from both builds, nothing on stderr"

# 3. A match, if asked for.
if [ ${#match_args[@]} -gt 0 ]; then
  "$target/release/wuzi-match" --engine "cmd=wine $exe" name=windows \
    --engine "cmd=$native" name=linux --strict-clock "${match_args[@]}"
fi
echo "windows-check: OK"
