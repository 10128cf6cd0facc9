#!/bin/sh
# check_man.sh FRAY PAGE... - the man pages render without a warning and
# fray(1) documents what the program has: every subcommand `fray help`
# lists, `fray check --online`, and the exit statuses of `fray run`
# (including the 10 + N gateway codes of daemon.h and the units'
# RestartPreventExitStatus=).
# Exits 77 (ctest: skipped) where man(1) is not installed.
set -eu
[ $# -ge 2 ] || { echo "usage: check_man.sh path/to/fray page..."; exit 2; }
fray=$1; shift
command -v man >/dev/null 2>&1 || { echo "no man(1): skipped (scripts/setup installs man-db)"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
for page in "$@"; do
    # every groff warning (-ww), as man passes them with --warnings=w
    if ! MANWIDTH=80 LC_ALL=C.UTF-8 man --warnings=w -l "$page" >"$tmp/out" 2>"$tmp/err"; then
        echo "FAIL: man -l $page exited non-zero"; cat "$tmp/err"; fail=1
    fi
    if [ -s "$tmp/err" ]; then
        echo "FAIL: $page renders with warnings:"; cat "$tmp/err"; fail=1
    fi
    [ -s "$tmp/out" ] || { echo "FAIL: $page renders empty"; fail=1; }
    echo "$(basename "$page"): $(wc -l <"$tmp/out") lines, no warning"
    case $page in *fray.1) one=$page ;; esac
done
[ -n "${one:-}" ] || { echo "FAIL: fray.1 not given"; exit 1; }
# rendered text, hyphenation off, so words are whole
MANWIDTH=1000 LC_ALL=C.UTF-8 man -l "$one" 2>/dev/null | sed 's/‐//g' >"$tmp/fray1"
for cmd in $("$fray" help | sed -n 's/^  \([a-z][a-z]*\) .*/\1/p'); do
    grep -q "^   fray $cmd" "$tmp/fray1" || { echo "FAIL: fray(1) has no section for 'fray $cmd'"; fail=1; }
done
for word in "--online" "--config" "--version" "10 + N" "DISCORD_TOKEN" \
            "JOURNAL_STREAM" "/etc/fray/fray.conf" "/etc/fray/discord-token"; do
    grep -q -- "$word" "$tmp/fray1" || { echo "FAIL: fray(1) does not mention $word"; fail=1; }
done
# every exit status the units refuse to restart on is explained
units=$(dirname "$0")/../../systemd/fray.service
sed -n '/^EXIT STATUS/,/^EXAMPLES/p' "$tmp/fray1" >"$tmp/exit"
for st in $(sed -n 's/^RestartPreventExitStatus=//p' "$units"); do
    grep -qw "$st" "$tmp/exit" || { echo "FAIL: fray(1) EXIT STATUS does not explain $st"; fail=1; }
done
[ $fail = 0 ] && echo "man pages: ok"
exit $fail
