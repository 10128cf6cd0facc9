#!/bin/sh
# test_version_order.sh SRC WORKDIR - a package built from a newer commit
# has a newer version, so the documented update (docs/discord-setup.md:
# git pull, scripts/package, apt install) installs it.
#
# Copies SRC's tree into a new repository in WORKDIR, builds the package
# (scripts/package), adds a commit, builds again, and checks with dpkg --compare-versions that
# the second package's version sorts after the first's, that the two
# differ, and that OUTDIR holds only the newer one (`apt install
# OUTDIR/fray_*.deb` must name one file). Exits 77 (ctest: skipped) where
# git or dpkg's tools are missing. Takes two package builds.
set -eu
[ $# -eq 2 ] || { echo "usage: test_version_order.sh SRC WORKDIR"; exit 2; }
src=$(cd "$1" && pwd)
work=$2
skip() { echo "SKIPPED: $*"; exit 77; }
fail() { echo "FAIL: $*"; exit 1; }
for tool in git dpkg dpkg-deb dpkg-shlibdeps dpkg-buildflags; do
    command -v $tool >/dev/null 2>&1 || skip "$tool is not installed (scripts/setup package)"
done
git -C "$src" rev-parse HEAD >/dev/null 2>&1 || skip "$src is not a git checkout"

# The tree as it is now (the files git knows, uncommitted changes
# included), as the first commit of a repository of its own.
rm -rf "$work"
mkdir -p "$work/tree"
git -C "$src" ls-files -z --cached --others --exclude-standard |
    (cd "$src" && xargs -0 tar --ignore-failed-read -cf - 2>/dev/null) |
    tar -xf - -C "$work/tree"
commit() {
    git -C "$work/tree" -c user.name=test -c user.email=test@invalid \
        commit -q --allow-empty -m "$1"
}
git -C "$work/tree" init -q
git -C "$work/tree" add -A
commit "the tree under test"
out="$work/tree/build-package"
export FRAY_PACKAGE_LINT=0

build() {
    (cd "$work/tree" && ./scripts/package) >"$work/package-$1.log" 2>&1 ||
        { tail -20 "$work/package-$1.log"; fail "scripts/package ($1)"; }
    set -- "$out"/fray_*.deb
    [ $# -eq 1 ] && [ -f "$1" ] || fail "build-package holds $# packages: $*"
    dpkg-deb -f "$1" Version
}
v1=$(build first)
commit "a newer commit"
v2=$(build second)
echo "first:  $v1"
echo "second: $v2"
[ "$v1" != "$v2" ] || fail "two commits, one version: $v1"
dpkg --compare-versions "$v2" gt "$v1" || fail "$v2 does not sort after $v1"
case $v1 in *.dirty) fail "a clean clone's version says dirty: $v1" ;; esac
echo "ok: $v2 > $v1"
rm -rf "$work"
