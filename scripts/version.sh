#!/bin/sh
# Prints fitiq-tui's version: the release number in VERSION, the one place it is written
# (CONTRIBUTING.md "Making a release"). On the commit that last changed VERSION it is that number
# alone (`0.6.0`); after it, the commits since and the commit follow as a suffix (`0.6.0+12.gabc1234`,
# so a later commit sorts higher, for dpkg too); uncommitted changes to tracked files add `.dirty`.
# Tags are not read (a clone may have none). Outside a git checkout (a source tarball) it is the number
# alone; in a shallow clone that does not reach the release commit, `+g` and the commit.
# With --swift FILE, writes it instead as the Swift constant `buildVersion` into FILE, touching FILE
# only when the text changes (so an unchanged version rebuilds nothing). The build runs this through
# Plugins/BuildVersion before every build; `make dist` names its tarball with it and `make deb` its
# packages (scripts/deb/version.sh).
set -u
repo=$(cd "$(dirname "$0")/.." && pwd)
release=$(tr -d ' \t\r\n' < "$repo/VERSION" 2>/dev/null) || release=""
if ! printf '%s\n' "$release" | grep -qxE '[0-9]+\.[0-9]+\.[0-9]+'; then
    echo "error: $repo/VERSION must hold the release number, MAJOR.MINOR.PATCH (as 0.6.0)" >&2
    exit 1
fi
version=$release
# safe.directory: `sudo make install` in a checkout owned by someone else still reads it.
git() { command git -c safe.directory="$repo" -C "$repo" "$@"; }
if [ -e "$repo/.git" ] && head=$(git rev-parse --short=7 HEAD 2>/dev/null); then
    # The release commit: the last one that changed VERSION, along the first parents (so a merge that
    # brings a new number is the release, not the branch's commit). None while VERSION is uncommitted.
    bump=$(git log -1 --first-parent --format=%H -- VERSION 2>/dev/null) || bump=""
    shallow=$(git rev-parse --git-path shallow)
    case "$shallow" in /*) ;; *) shallow="$repo/$shallow" ;; esac
    if [ -n "$bump" ] && [ -f "$shallow" ] && grep -qx "$bump" "$shallow"; then
        # A shallow clone's oldest commit seems to add every file: how far the release is is unknown.
        version="$release+g$head"
    else
        if [ -n "$bump" ]; then since=$(git rev-list --count "$bump..HEAD"); else since=$(git rev-list --count HEAD); fi
        [ "$since" = 0 ] || version="$release+$since.g$head"
    fi
    if [ -n "$(git status --porcelain --untracked-files=no 2>/dev/null)" ]; then
        case "$version" in *+*) version="$version.dirty" ;; *) version="$version+$since.g$head.dirty" ;; esac
    fi
fi

if [ "${1:-}" = "--swift" ] && [ -n "${2:-}" ]; then
    text=$(printf '/// The version of this build (scripts/version.sh at build time).\nlet buildVersion = "%s"\n' "$version")
    if [ ! -f "$2" ] || [ "$(cat "$2")" != "$text" ]; then
        printf '%s\n' "$text" > "$2.tmp" && mv "$2.tmp" "$2"
    fi
else
    printf '%s\n' "$version"
fi
