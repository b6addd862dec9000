#!/bin/sh
# The catalogs' checks (part of `make test`): the template po/fitiq-tui.pot is what the code says (a
# message in the code and not in the template fails, and so does one left in the template), every
# catalog holds every message of the template translated, none fuzzy and none extra, and
# `msgfmt --check` passes on each (placeholders, plural forms, header). Source references (`#:` lines)
# are left out of the comparison: moving a message to another file is no change for a translator, and
# `make po` brings them up to date.
set -eu
cd "$(dirname "$0")/../.."
status=0
fresh=$(mktemp)
trap 'rm -f "$fresh"' EXIT
sh scripts/po/extract.sh "$fresh"
if ! diff -u --ignore-matching-lines="^#: " po/fitiq-tui.pot "$fresh"; then
    echo "error: po/fitiq-tui.pot is not what the code says (above); run make po and translate" >&2
    status=1
fi
for catalog in po/*.po; do
    if ! msgfmt --check --statistics --output-file=/dev/null "$catalog" 2>"$fresh.out"; then
        cat "$fresh.out" >&2
        echo "error: msgfmt --check fails on $catalog" >&2
        status=1
        continue
    fi
    statistics=$(cat "$fresh.out")
    rm -f "$fresh.out"
    case "$statistics" in
    *fuzzy* | *untranslated*)
        echo "error: $catalog: $statistics" >&2
        status=1
        ;;
    esac
    # msgcmp: every template message is in the catalog; the reverse: no entry the template lacks.
    if ! msgcmp --use-untranslated po/"$(basename "$catalog")" po/fitiq-tui.pot; then status=1; fi
    extra=$(msgcomm --no-wrap --less-than=2 --unique "$catalog" po/fitiq-tui.pot 2>/dev/null |
        grep '^msgid ' | grep -vc '^msgid ""$' || true)
    if [ "$extra" -gt 0 ]; then
        echo "error: $catalog has $extra entries the template lacks (obsolete?): run make po" >&2
        status=1
    fi
    echo "$catalog: $statistics"
done
exit $status
