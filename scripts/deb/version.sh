#!/bin/sh
# Prints the Debian version of this checkout: a tag `v0.6.0` gives `0.6.0`; a commit after it (or a
# checkout without a tag) `0.6.0+git20261127094512.0a37543`, from the commit's UTC time, so a later
# commit always sorts higher. Outside git it refuses: a package needs a version that says what it holds.
set -eu
repo=$(cd "$(dirname "$0")/../.." && pwd)
if [ ! -e "$repo/.git" ] || ! git -C "$repo" rev-parse HEAD >/dev/null 2>&1; then
    echo "error: make deb needs a git checkout: the package's version comes from git describe" >&2
    exit 1
fi
git() { command git -c safe.directory="$repo" -C "$repo" "$@"; }
tag=$(git describe --tags --abbrev=0 --match 'v[0-9]*' 2>/dev/null || true)
base=${tag#v}
[ -n "$base" ] || base=0.0.0
if [ -n "$tag" ] && [ "$(git rev-list -n 1 "$tag")" = "$(git rev-parse HEAD)" ]; then
    version=$base
else
    stamp=$(TZ=UTC git log -1 --date=format-local:%Y%m%d%H%M%S --format=%cd HEAD)
    version="$base+git$stamp.$(git rev-parse --short=7 HEAD)"
fi
if [ -n "$(git status --porcelain --untracked-files=no 2>/dev/null)" ]; then version="$version.dirty"; fi
printf '%s\n' "$version"
