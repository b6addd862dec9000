#!/bin/sh
# Prints the Debian upstream version of this checkout: fitiq-tui's version (scripts/version.sh, from
# VERSION), which is already one dpkg orders: `0.6.0` on the release commit, `0.6.0+12.gabc1234` after
# it (sorting above 0.6.0, below 0.6.1), `.dirty` for uncommitted changes. Refuses what dpkg would not
# take as an upstream version.
set -eu
version=$(sh "$(dirname "$0")/../version.sh")
if ! printf '%s\n' "$version" | grep -qxE '[0-9][A-Za-z0-9.+~]*'; then
    echo "error: $version is no Debian upstream version" >&2
    exit 1
fi
printf '%s\n' "$version"
