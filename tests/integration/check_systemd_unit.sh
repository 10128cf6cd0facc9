#!/bin/sh
# check_systemd_unit.sh UNIT... - for each unit, core dumps are off
# (LimitCORE=0: a core would hold the bot token), systemd-analyze verify
# passes and systemd-analyze security --offline rates it 2.0 or better. A
# template unit (NAME@.service) is checked as its instance NAME@0.service,
# so %i is expanded as it will be when it runs.
# verify also runs man(1) on each Documentation=man:... page: with
# FRAY_MAN_PAGES=DIR (the source tree's docs/man) those are looked up there,
# as installed they are in the system's man path.
# Exits 77 (ctest: skipped) where systemd-analyze is not available.
set -eu
[ $# -ge 1 ] || { echo "usage: check_systemd_unit.sh path/to/fray.service..."; exit 2; }
for unit in "$@"; do
    grep -qx 'LimitCORE=0' "$unit" || { echo "FAIL: $unit: no LimitCORE=0"; exit 1; }
done
command -v systemd-analyze >/dev/null 2>&1 || { echo "no systemd-analyze: skipped"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if [ -n "${FRAY_MAN_PAGES:-}" ]; then
    mkdir -p "$tmp/man/man1" "$tmp/man/man5"
    cp "$FRAY_MAN_PAGES"/*.1 "$tmp/man/man1/"
    cp "$FRAY_MAN_PAGES"/*.5 "$tmp/man/man5/"
    MANPATH="$tmp/man:$(manpath 2>/dev/null || echo /usr/share/man)"
    export MANPATH
fi
for unit in "$@"; do
    name=$(basename "$unit")
    case $name in
        *@.service) name=${name%@.service}@0.service ;;
    esac
    # verify needs an executable that exists here; the installed path may not
    sed 's|^ExecStart=[^ ]*|ExecStart=/bin/true|' "$unit" > "$tmp/$name"
    if ! out=$(systemd-analyze verify "$tmp/$name" 2>&1); then
        echo "$out"; echo "FAIL: systemd-analyze verify $name"; exit 1
    fi
    if [ -n "$out" ]; then
        echo "$out"; echo "FAIL: systemd-analyze verify $name printed warnings"; exit 1
    fi
    sec=$(systemd-analyze security --offline=yes "$tmp/$name" 2>&1) || true
    score=$(printf '%s\n' "$sec" | sed -n "s/.*Overall exposure level for $name: \([0-9.]*\).*/\1/p")
    if [ -z "$score" ]; then
        echo "$sec" | tail -5; echo "no security score: skipped"; exit 77
    fi
    echo "$name: exposure score $score (limit 2.0)"
    awk -v s="$score" 'BEGIN { exit !(s <= 2.0) }' || { echo "FAIL: $name: score above 2.0"; exit 1; }
done
