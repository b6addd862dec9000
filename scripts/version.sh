#!/bin/sh
# Prints fitiq-tui's version: `git describe --tags --always --dirty` of this checkout, or, outside a
# git checkout (a source tarball), "unknown (built without git)".
# With --swift FILE, writes it instead as the Swift constant `buildVersion` into FILE, touching FILE
# only when the text changes (so an unchanged version rebuilds nothing). The build runs this through
# Plugins/BuildVersion before every build; `make dist` names its tarball with it.
set -u
repo=$(cd "$(dirname "$0")/.." && pwd)
version=""
if [ -e "$repo/.git" ]; then
    # safe.directory: `sudo make install` in a checkout owned by someone else still reads it.
    version=$(git -c safe.directory="$repo" -C "$repo" describe --tags --always --dirty 2>/dev/null) || version=""
fi
[ -n "$version" ] || version="unknown (built without git)"

if [ "${1:-}" = "--swift" ] && [ -n "${2:-}" ]; then
    # A Swift string literal: a tag name may hold a quote (git allows it), never a backslash.
    version=$(printf '%s' "$version" | sed 's/"/\\"/g')
    text=$(printf '/// The version of this build (scripts/version.sh at build time).\nlet buildVersion = "%s"\n' "$version")
    if [ ! -f "$2" ] || [ "$(cat "$2")" != "$text" ]; then
        printf '%s\n' "$text" > "$2.tmp" && mv "$2.tmp" "$2"
    fi
else
    printf '%s\n' "$version"
fi
