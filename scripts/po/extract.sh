#!/bin/sh
# Extracts the messages of Sources/ into a gettext template (po/fitiq-tui.pot by default, or OUTPUT):
# the string literals passed to tr, trc, trn and Phrase (Sources/FitIQLocalization/Messages.swift).
# xgettext reads Swift as C, which is exact for what those functions accept: one-line string literals
# without interpolation (their parameters are StaticString). Messages with {placeholders} are marked
# python-brace-format, so `msgfmt --check` verifies every translation keeps the same ones.
#
#   scripts/po/extract.sh [OUTPUT]
set -eu
cd "$(dirname "$0")/../.."
output=${1:-po/fitiq-tui.pot}
raw=$(mktemp)
trap 'rm -f "$raw"' EXIT
# Sorted by message, no line numbers: the template changes only when a message does, not when code moves.
find Sources -name '*.swift' | LC_ALL=C sort | xgettext --files-from=- --language=C --from-code=UTF-8 \
    --no-wrap --add-location=file --sort-output --package-name=fitiq-tui --msgid-bugs-address= \
    --keyword= --keyword=tr:1 --keyword=trc:1c,2 --keyword=trn:1,2 --keyword=Phrase:1 \
    --flag=tr:1:no-c-format --flag=trc:2:no-c-format --flag=trn:1:no-c-format --flag=trn:2:no-c-format \
    --flag=Phrase:1:no-c-format --output="$raw" 2>/dev/null
# The header gets no creation date (so an unchanged code base gives the same file); each entry's
# no-c-format flag becomes python-brace-format when its text has a {placeholder}, and goes otherwise.
awk '
    BEGIN { RS = ""; ORS = "\n\n" }
    {
        gsub(/"POT-Creation-Date: [^"]*"\n/, "")
        braces = ($0 ~ /msgid(_plural)? "[^\n]*\{[a-z_]+\}/)
        if (braces) sub(/#, no-c-format/, "#, python-brace-format")
        else { sub(/#, no-c-format\n/, ""); sub(/\n#, no-c-format/, "") }
        print
    }
' "$raw" | sed -e '$ { /^$/ d }' > "$output.tmp"
mv "$output.tmp" "$output"
