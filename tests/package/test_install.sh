#!/bin/sh
# test_install.sh SRC WORKDIR - install fray as docs/discord-setup.md says,
# on a clean copy of the tree, into a throwaway root.
#
# The commands are the page's own: the fenced block after the marker
# "<!-- tested: install -->" runs line by line in a copy of SRC (the files
# git knows, no build folder), with `sudo ` dropped and `apt install
# ./X.deb` replaced by dpkg --root into WORKDIR/root (maintainer scripts
# chrootless with DPKG_ROOT, dependencies taken from the host). Then, in
# that root: fray --version, systemd-analyze verify --root on both units
# (the host's base units copied in, as an installed systemd would have
# them; the man pages looked up in the root), the unit enabled, the
# conffile registered, `fray check` on the installed config, and a purge
# that leaves nothing behind (token and state included).
#
# Exits 77 (ctest: skipped) where a tool it needs is missing or dpkg
# cannot install into a root (not root). Takes a package build (~40 s).
set -eu
[ $# -eq 2 ] || { echo "usage: test_install.sh SRC WORKDIR"; exit 2; }
src=$(cd "$1" && pwd)
work=$2
skip() { echo "SKIPPED: $*"; exit 77; }
for tool in dpkg dpkg-deb dpkg-shlibdeps dpkg-buildflags systemd-analyze git tar; do
    command -v $tool >/dev/null 2>&1 || skip "$tool is not installed (scripts/setup)"
done
[ "$(id -u)" -eq 0 ] || skip "dpkg --root needs root here"
command -v deb-systemd-helper >/dev/null 2>&1 ||
    skip "deb-systemd-helper is not installed (init-system-helpers)"

rm -rf "$work"
tree="$work/tree"
root="$work/root"
mkdir -p "$tree" "$root/var/lib/dpkg/updates" "$root/var/lib/dpkg/info" \
         "$root/lib/systemd"
touch "$root/var/lib/dpkg/status"
# the base units an installed systemd has (sysinit.target, ...)
cp -a /lib/systemd/system "$root/lib/systemd/"
units_before=$(find "$root/lib/systemd/system" | wc -l)
fail() { echo "FAIL: $*"; exit 1; }

# ---- a clean tree ----
git -C "$src" ls-files -z --cached --others --exclude-standard |
    (cd "$src" && xargs -0 tar --ignore-failed-read -cf - 2>/dev/null) |
    tar -xf - -C "$tree"
[ -f "$tree/scripts/package" ] || fail "the copy of $src has no scripts/package"
# the copy is no git checkout: give it the source's commit
FRAY_PACKAGE_COMMIT=$(git -C "$src" describe --always --dirty --abbrev=12 --match=NeVeRmAtCh)
# and its version (scripts/version counts the checkout's commits)
FRAY_PACKAGE_VERSION=$("$src/scripts/version")
export FRAY_PACKAGE_COMMIT FRAY_PACKAGE_VERSION

# ---- the page's commands ----
page="$src/docs/discord-setup.md"
awk '/<!-- tested: install -->/ { on = 1; next }
     on && /^```/ { if (++fence == 2) exit; next }
     on && fence == 1 { print }' "$page" >"$work/commands"
[ -s "$work/commands" ] || fail "no '<!-- tested: install -->' block in $page"
installed=0
while IFS= read -r line; do
    cmd=${line%%#*}                       # the comment is for the reader
    cmd=$(printf '%s' "$cmd" | sed 's/[[:space:]]*$//; s/^sudo //')
    [ -n "$cmd" ] || continue
    echo "+ $cmd"
    case $cmd in
        "apt install "*)
            deb=${cmd#apt install }
            (cd "$tree" && dpkg --root="$root" --force-script-chrootless \
                 --force-depends -i $deb) >"$work/dpkg-install.log" 2>&1 ||
                { cat "$work/dpkg-install.log"; fail "installing $deb"; }
            installed=1 ;;
        *)
            (cd "$tree" && sh -c "$cmd") || fail "the page's command failed: $cmd" ;;
    esac
done <"$work/commands"
[ $installed = 1 ] || fail "the page's block installs no package"

# ---- the installed package ----
ver=$FRAY_PACKAGE_VERSION
"$root/usr/bin/fray" --version >"$work/version" || fail "fray --version"
cat "$work/version"
head -1 "$work/version" | grep -qx "fray $ver" || fail "--version: not fray $ver"
grep -q "^commit $FRAY_PACKAGE_COMMIT\$" "$work/version" || fail "--version: wrong commit"
for lib in libwebsockets libcurl jansson sqlite libpq openssl zlib; do
    grep -q "^$lib " "$work/version" || fail "--version lacks $lib"
done
# Debian's hardening (dpkg-buildflags hardening=+all), read off the binary:
# position independent, read-only relocations bound now, the stack
# protector and fortified string functions.
bin="$root/usr/bin/fray"
readelf -h "$bin" | grep -q 'Type:.*DYN' || fail "fray is not position independent"
readelf -lW "$bin" | grep -q GNU_RELRO || fail "fray has no RELRO"
readelf -dW "$bin" | grep -Eq 'BIND_NOW|FLAGS.*NOW' || fail "fray is not bound now"
readelf --dyn-syms -W "$bin" | grep -q __stack_chk_fail || fail "fray has no stack protector"
readelf --dyn-syms -W "$bin" | grep -q '_chk@' || fail "fray has no fortified functions"
echo "hardening: PIE, RELRO, BIND_NOW, stack protector, FORTIFY_SOURCE"
for unit in fray.service fray@0.service; do
    MANPATH="$root/usr/share/man" systemd-analyze verify --root="$root" "$unit" \
        >"$work/verify.log" 2>&1 || { cat "$work/verify.log"; fail "verify $unit"; }
    [ ! -s "$work/verify.log" ] || { cat "$work/verify.log"; fail "verify $unit warned"; }
    echo "systemd-analyze verify $unit: clean"
done
grep -q "^ExecStart=/usr/bin/fray run --config /etc/fray/fray.conf" \
    "$root/lib/systemd/system/fray.service" || fail "ExecStart= is not /usr/bin/fray"
[ -L "$root/etc/systemd/system/multi-user.target.wants/fray.service" ] ||
    fail "fray.service is not enabled"
dpkg-query --admindir="$root/var/lib/dpkg" -W -f='${Conffiles}\n' fray |
    grep -q "^ /etc/fray/fray.conf " || fail "/etc/fray/fray.conf is no conffile"
for f in usr/share/man/man1/fray.1.gz usr/share/man/man5/fray.conf.5.gz \
         usr/share/doc/fray/copyright usr/share/doc/fray/changelog.gz \
         usr/share/doc/fray/examples/fray.conf.example; do
    [ -f "$root/$f" ] || fail "/$f is not installed"
done
# Every page an installed page links to is installed too (compressed or
# not, as the packager does). The README is the repository's front page:
# its links name the tree's folders (docs/, docs/internals/), so it is not
# held to the installed layout.
docdir="$root/usr/share/doc/fray"
links=0
for page in $(cd "$docdir" && find . -name '*.md' -o -name '*.md.gz' | sort); do
    case $page in ./README.md*) continue ;; esac
    dir=$(dirname "$page")
    for target in $(zcat -f "$docdir/$page" |
                    grep -io '](\([a-z0-9_./-]*\.md\)\(#[a-z0-9-]*\)\?)' |
                    sed 's/^](\([^)#]*\).*/\1/' | sort -u); do
        f="$dir/$target"
        [ -f "$docdir/$f" ] || [ -f "$docdir/$f.gz" ] ||
            fail "$page links to $target, which the package does not install"
        links=$((links + 1))
    done
done
[ "$links" -gt 10 ] || fail "only $links links found in the installed docs"
echo "installed docs: $links links, each to an installed page"
# the installed config finds the rules data in the package (paths into the
# throwaway root), and `fray check` is content with it
sed "s|= /|= $root/|" "$root/etc/fray/fray.conf" >"$work/fray.conf"
grep -q "^dir = $root/usr/share/fray\$" "$work/fray.conf" || fail "[rules] dir"
[ -f "$root/usr/share/fray/tactical-effects.conf" ] || fail "no tactical-effects.conf"
DISCORD_TOKEN=NzkyNzE1NDU0MTk2MDg4ODQy.X-hvzA.Ovy4MCQywSkoMRRclStW4xAYK7I \
    "$root/usr/bin/fray" check --config "$work/fray.conf" >"$work/check" ||
    { cat "$work/check"; fail "fray check on the installed config"; }
grep -q "^ok    rules: 1 data file in $root/usr/share/fray parses" "$work/check" ||
    { cat "$work/check"; fail "fray check did not find the rules data"; }
echo "fray check on the installed config: ready"

# ---- purge: nothing left ----
printf 'x.y.z\n' >"$root/etc/fray/discord-token"
mkdir -p "$root/var/lib/private/fray" "$root/var/lib/fray-1"
ln -s private/fray "$root/var/lib/fray"
touch "$root/var/lib/private/fray/fray.db"
dpkg --root="$root" --force-script-chrootless --purge fray \
    >"$work/dpkg-purge.log" 2>&1 || { cat "$work/dpkg-purge.log"; fail "purge"; }
for p in usr/bin/fray etc/fray lib/systemd/system/fray.service \
         lib/systemd/system/fray@.service usr/share/doc/fray usr/share/fray \
         etc/systemd/system/multi-user.target.wants/fray.service \
         var/lib/fray var/lib/private/fray var/lib/fray-1; do
    if [ -e "$root/$p" ] || [ -L "$root/$p" ]; then
        fail "/$p is still there after the purge"
    fi
done
[ "$(find "$root/lib/systemd/system" | wc -l)" -eq "$units_before" ] ||
    fail "the purge left or took units"
echo "purge: nothing left"
rm -rf "$work"
echo "install test: ok"
