#!/usr/bin/env bash
# Builds the libFuzzer targets of Fuzz/Targets into .build/fuzz/bin (CONTRIBUTING.md "Fuzzing").
#
# Each target is compiled straight with swiftc, outside the package, with -sanitize=fuzzer,address:
# FitIQLocalization and FitIQCore as static libraries of their own, then the target file together with the sources of the
# module it fuzzes (under that module's name, so it reaches the module's internal decoders). Only the
# files that parse outside input are compiled: nothing that needs libcurl.
#
#   scripts/fuzz/build.sh [TARGET...]     (default: every target)
set -euo pipefail
cd "$(dirname "$0")/../.."

SWIFTC=${SWIFTC:-swiftc}
OUT=.build/fuzz
# Every file of Fuzz/Targets is a target (scripts/fuzz/run.py reads the same folder).
mapfile -t ALL_TARGETS < <(find Fuzz/Targets -name '*.swift' -printf '%f\n' | sed 's/\.swift$//' | sort)
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=("${ALL_TARGETS[@]}")

FLAGS=(-sanitize=fuzzer,address -use-ld=lld -O -g -parse-as-library -swift-version 6 -package-name fitiq_tui -I "$OUT/modules")
mkdir -p "$OUT/modules" "$OUT/lib" "$OUT/bin"

# FitIQLocalization (the messages), FitIQCore, then FitIQWords (the core's values worded) on both,
# instrumented, once for every target. Each is built again when a source changed, or when the list of sources did (a file renamed or
# removed): an archive written over an old one keeps the old one's objects.
build_library() { # build_library MODULE
    local module="$1" sources
    sources=$(find "Sources/$module" -name '*.swift' | sort)
    if [ ! -f "$OUT/lib/lib$module.a" ] || [ "$sources" != "$(cat "$OUT/lib/$module.sources" 2>/dev/null)" ] \
        || [ -n "$(find "Sources/$module" -newer "$OUT/lib/lib$module.a" -name '*.swift')" ]; then
        echo "fuzz: building $module"
        rm -f "$OUT/lib/lib$module.a"
        # shellcheck disable=SC2086
        "$SWIFTC" "${FLAGS[@]}" -module-name "$module" -emit-module -emit-module-path "$OUT/modules/$module.swiftmodule" \
            -emit-library -static -o "$OUT/lib/lib$module.a" $sources
        echo "$sources" >"$OUT/lib/$module.sources"
    fi
}
build_library FitIQLocalization
build_library FitIQCore
build_library FitIQWords
CORE=(-L "$OUT/lib" -lFitIQWords -lFitIQCore -lFitIQLocalization)

import_sources() {
    find Sources/FitIQImport -name '*.swift' | sort
}
# libxml2 is not linked: the reader opens it with dlopen (Sources/FitIQImport/LibXML2.swift), as fitiq-tui does.
IMPORT_C=(-I Sources/CLibXML2 -I Sources/CZlib -lz)

for target in "${targets[@]}"; do
    echo "fuzz: building $target"
    case "$target" in
    text)
        "$SWIFTC" "${FLAGS[@]}" -module-name FuzzText Fuzz/Targets/text.swift "${CORE[@]}" -o "$OUT/bin/text" ;;
    cache)
        # shellcheck disable=SC2046
        "$SWIFTC" "${FLAGS[@]}" -module-name FitIQCache $(find Sources/FitIQCache -name '*.swift' | sort) \
            Fuzz/Targets/cache.swift -I Sources/CFileSync "${CORE[@]}" -o "$OUT/bin/cache" ;;
    wire)
        # The answer decoders only: the transport (libcurl) stays out.
        "$SWIFTC" "${FLAGS[@]}" -module-name FitIQHTTP Sources/FitIQHTTP/WireTypes.swift \
            Sources/FitIQHTTP/WireResponses.swift Fuzz/Targets/wire.swift "${CORE[@]}" -o "$OUT/bin/wire" ;;
    health-xml | zip | csv | app-json)
        # The readers of FitIQImport, compiled with the target into that module (its internal readers).
        # shellcheck disable=SC2046
        "$SWIFTC" "${FLAGS[@]}" -module-name FitIQImport $(import_sources) "Fuzz/Targets/$target.swift" \
            "${IMPORT_C[@]}" "${CORE[@]}" -o "$OUT/bin/$target" ;;
    *)
        echo "fuzz: unknown target $target (targets: ${ALL_TARGETS[*]})" >&2
        exit 2 ;;
    esac
done
