#!/bin/sh
# console_lang.sh FRAY - `fray console --lang` (docs/console.md): replies
# and the line parser's errors in the language given, English without
# it, and an unknown code refused with the known ones (exit 2).
set -eu
fray="$1"
out=$(printf '/help\n/roll dice:"2d6\n/help topic:dice\n/roll dice:2d6 bogus:1\n' |
      "$fray" console --db :memory: --seed 1 --lang pl)
echo "$out" | grep -q 'fray w minutę' || { echo "no Polish /help: $out"; exit 1; }
echo "$out" | grep -q 'Zachowaj/odrzuć' ||
    { echo "no Polish /help topic:dice: $out"; exit 1; }
echo "$out" | grep -q 'nieznana opcja bogus dla /roll' ||
    { echo "no Polish validation error: $out"; exit 1; }
echo "$out" | grep -q 'niezamknięty cudzysłów w opcji' ||
    { echo "no Polish parser error: $out"; exit 1; }
out=$(printf '/help\n' | "$fray" console --db :memory: --seed 1)
echo "$out" | grep -q 'fray in one minute' || { echo "not English: $out"; exit 1; }
err=$(mktemp)
trap 'rm -f "$err"' EXIT
if "$fray" console --db :memory: --lang klingon </dev/null 2>"$err"; then
    echo "--lang klingon accepted"; exit 1
fi
grep -q 'en, de, fr, es-ES, pt-BR, pl, qps' "$err" || { cat "$err"; exit 1; }
echo "console_lang: ok"
