#!/bin/sh
# docs_lang.sh FRAY - `fray docs --lang CODE DIR` (fray(1)): the command
# reference in that language, every page written; English without it;
# an unknown code refused with the known ones (exit 2).
set -eu
fray="$1"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
"$fray" docs --lang de "$dir/de"  2>/dev/null && { echo "wrote into a missing folder"; exit 1; }
mkdir "$dir/de" "$dir/en"
"$fray" docs --lang de "$dir/de"
"$fray" docs "$dir/en"
for page in "$dir"/en/*.md; do
    [ -s "$dir/de/$(basename "$page")" ] ||
        { echo "no German $(basename "$page")"; exit 1; }
done
grep -q '^# Befehlsreferenz' "$dir/de/README.md" ||
    { echo "not German:"; head -3 "$dir/de/README.md"; exit 1; }
grep -q '^## Zustände' "$dir/de/generic.md" ||
    { echo "generic.md is not German"; exit 1; }
grep -q '^# Command reference' "$dir/en/README.md" ||
    { echo "not English without --lang"; exit 1; }
if "$fray" docs --lang klingon "$dir/en" 2>"$dir/err"; then
    echo "--lang klingon accepted"; exit 1
fi
grep -q 'en, de, fr, es-ES, pt-BR, pl' "$dir/err" || { cat "$dir/err"; exit 1; }
echo "docs_lang: ok"
