#!/bin/sh
# check_systemd_unit.sh UNIT - systemd-analyze verify passes and
# systemd-analyze security --offline rates the unit 2.0 or better.
# Exits 77 (ctest: skipped) where systemd-analyze is not available.
set -eu
unit=${1:?usage: check_systemd_unit.sh path/to/fray.service}
command -v systemd-analyze >/dev/null 2>&1 || { echo "no systemd-analyze: skipped"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# verify needs an executable that exists here; the installed path may not
sed 's|^ExecStart=[^ ]*|ExecStart=/bin/true|' "$unit" > "$tmp/fray.service"
if ! out=$(systemd-analyze verify "$tmp/fray.service" 2>&1); then
    echo "$out"; echo "FAIL: systemd-analyze verify"; exit 1
fi
if [ -n "$out" ]; then
    echo "$out"; echo "FAIL: systemd-analyze verify printed warnings"; exit 1
fi
sec=$(systemd-analyze security --offline=yes "$tmp/fray.service" 2>&1) || true
score=$(printf '%s\n' "$sec" | sed -n 's/.*Overall exposure level for fray.service: \([0-9.]*\).*/\1/p')
if [ -z "$score" ]; then
    echo "$sec" | tail -5; echo "no security score: skipped"; exit 77
fi
echo "exposure score $score (limit 2.0)"
awk -v s="$score" 'BEGIN { exit !(s <= 2.0) }' || { echo "FAIL: score above 2.0"; exit 1; }
