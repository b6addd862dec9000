#!/bin/sh
# make deb-check: installs the packages of `make deb` into a clean Debian 12 root made by mmdebstrap (apt and
# Debian's packages, nothing else) and uses them there: apt resolves the dependencies; --version, the man
# page and the bash completion; the packaged development server on loopback with register, weight set,
# sync --wait (libcurl) and a German status; the demo in tmux with both packages, and with fitiq-tui
# alone the sentence that names the missing package; an upgrade from a lower version of the same tree
# that keeps the user's cache and session; a purge that leaves no file of the packages and keeps the
# user's data. Prints the log; exits non-zero when a step fails.
#
#   scripts/deb/check.sh DIST_DIR STAGE
set -eu
cd "$(dirname "$0")/../.."
dist=$(cd "$1" && pwd)
stage=$2
version=$(sh scripts/deb/version.sh)-1
arch=$(dpkg --print-architecture)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# The version to upgrade from: the same tree, one Debian revision lower.
DEB_VERSION="$(sh scripts/deb/version.sh)-0" sh scripts/deb/build.sh "$stage" "$work/old" >/dev/null
cp "$dist/fitiq-tui_${version}_$arch.deb" "$dist/fitiq-dev-server_${version}_$arch.deb" "$work/"
cp scripts/deb/inside.sh "$work/"
mmdebstrap --variant=apt --include=man-db,tmux,bash-completion,ca-certificates,locales \
    --customize-hook="mkdir -p \"\$1/check\"" \
    --customize-hook="copy-in $work/old $work/inside.sh $work/fitiq-tui_${version}_$arch.deb $work/fitiq-dev-server_${version}_$arch.deb /check" \
    --customize-hook="chroot \"\$1\" sh /check/inside.sh $version $arch" \
    bookworm /dev/null
