#!/usr/bin/env bash
# How many members (stored and computed properties, functions, initializers, subscripts) each named type
# declares, over its declaration and every extension of it in Sources (a rough count by grep: a type
# with more than about 20 is doing more than one job).
#
#   scripts/dev/members.sh AccountRecord Outbox ...
set -euo pipefail
cd "$(dirname "$0")/../.."
for type in "$@"; do
    total=0
    while IFS= read -r file; do
        count=$(awk -v T="$type" '
            $0 ~ "^(public |final )*(struct|enum|class|actor|extension) "T"([ :<{]|$)" { inside = 1; next }
            /^}/ { inside = 0 }
            inside && /^    (@[A-Za-z]+ )*(public |private |fileprivate |internal )?(private\(set\) )?(static )?(mutating )?(func|var|let|init|subscript)[ (<]/ { n++ }
            END { print n + 0 }' "$file")
        total=$((total + count))
    done < <(grep -rlE "^(public |final )*(struct|enum|class|actor|extension) $type\b" Sources)
    echo "$type $total"
done
