#!/bin/sh
# check_build_info.sh SRC - cmake/build_info.cmake, which gives
# `fray --version` its commit: in a git checkout the commit of HEAD
# (-dirty with changes), a given FRAY_GIT_COMMIT as it is, and in a tree
# without git (a tarball) a plain "unknown (not built from a git
# checkout)" instead of a guess.
set -eu
src=$(cd "$1" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/tarball"
run() { cmake -DSRC="$1" -DOUT="$tmp/h" ${2:+-DCOMMIT="$2"} -P "$src/cmake/build_info.cmake"; }
fail() { echo "FAIL: $*"; cat "$tmp/h"; exit 1; }

run "$tmp/tarball"
grep -q '^#define FRAY_GIT_COMMIT "unknown (not built from a git checkout)"$' "$tmp/h" ||
    fail "a tree without git"
run "$tmp/tarball" 0123456789ab
grep -q '^#define FRAY_GIT_COMMIT "0123456789ab"$' "$tmp/h" || fail "a given commit"
if git -C "$src" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    want=$(git -C "$src" describe --always --dirty --abbrev=12 --match=NeVeRmAtCh)
    run "$src"
    grep -q "^#define FRAY_GIT_COMMIT \"$want\"\$" "$tmp/h" || fail "the checkout ($want)"
fi
# an unchanged commit leaves the header alone (nothing recompiles)
run "$tmp/tarball" 0123456789ab
touch -d @1 "$tmp/h"
run "$tmp/tarball" 0123456789ab
[ "$(stat -c %Y "$tmp/h")" = 1 ] || fail "the header was rewritten without a change"
echo "build info: ok"
