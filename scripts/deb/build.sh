#!/bin/sh
# make deb: dist/fitiq-tui_VERSION_ARCH.deb and dist/fitiq-dev-server_VERSION_ARCH.deb from the staged
# release build (`make stage`: stripped programs, man pages, completions). DEB_VERSION overrides the
# version (make deb-check builds a lower one to upgrade from).
#
#   scripts/deb/build.sh STAGE OUTPUT_DIR
set -eu
cd "$(dirname "$0")/../.."
stage=$1
out=$2
# The upstream version and a Debian revision: the packaging is not the program (changelog.Debian.gz).
version=${DEB_VERSION:-$(sh scripts/deb/version.sh)-1}
arch=$(dpkg --print-architecture)
maintainer="FitIQ terminal team <fitiq-tui@fitiq.example>"
homepage="https://github.com/fitiq/fitiq-tui"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$out"

# What dpkg-shlibdeps says the linked libraries need (it reads a debian/control; any will do).
shlibs() {
    mkdir -p "$work/shlibs/debian"
    printf 'Source: fitiq-tui\n\nPackage: fitiq-tui\nArchitecture: any\n' > "$work/shlibs/debian/control"
    (cd "$work/shlibs" && dpkg-shlibdeps -O "$1" 2>/dev/null) | sed -n 's/^shlibs:Depends=//p'
}

# The files every package has: its copyright, changelog, lintian overrides (each with why) and md5sums;
# then the .deb, owned by root.
finish() { # finish PACKAGE ROOT
    package=$1 root=$2
    doc="$root/usr/share/doc/$package"
    mkdir -p "$doc" "$root/usr/share/lintian/overrides"
    cp "scripts/deb/overrides/$package" "$root/usr/share/lintian/overrides/$package"
    strip --remove-section=.comment "$root"/usr/bin/*
    sh scripts/deb/copyright.sh "$package" > "$doc/copyright"
    {
        printf '%s (%s) unstable; urgency=medium\n\n' "$package" "$version"
        printf '  * Built from %s.\n\n' "$(git -C . rev-parse --short=12 HEAD 2>/dev/null || echo source)"
        printf ' -- %s  %s\n' "$maintainer" "$(TZ=UTC git log -1 --date=rfc2822 --format=%cd HEAD 2>/dev/null)"
    } | gzip -9n > "$doc/changelog.Debian.gz"
    find "$root" -type d -exec chmod 0755 {} +
    find "$root" -type f -exec chmod 0644 {} +
    chmod 0755 "$root"/usr/bin/*
    (cd "$root" && find usr -type f | LC_ALL=C sort | xargs md5sum) > "$root/DEBIAN/md5sums"
    chmod 0644 "$root/DEBIAN/md5sums" "$root/DEBIAN/control"
    dpkg-deb --root-owner-group -Zxz --build "$root" "$out/${package}_${version}_${arch}.deb" >/dev/null
    echo "$out/${package}_${version}_${arch}.deb"
}

installed_size() { du -sk --exclude=DEBIAN "$1" | cut -f1; }

# fitiq-tui: the program, its man page, completions where Debian's shells look, the README and the
# changelog (CHANGELOG.md).
root="$work/fitiq-tui"
mkdir -p "$root/DEBIAN" "$root/usr/bin" "$root/usr/share/man/man1" "$root/usr/share/doc/fitiq-tui" \
    "$root/usr/share/bash-completion/completions" "$root/usr/share/zsh/vendor-completions" \
    "$root/usr/share/fish/vendor_completions.d"
cp "$stage/bin/fitiq-tui" "$root/usr/bin/"
patchelf --remove-rpath "$root/usr/bin/fitiq-tui"
gzip -9nc "$stage/share/man/man1/fitiq-tui.1" > "$root/usr/share/man/man1/fitiq-tui.1.gz"
for page in "$stage"/share/man/man1/fitiq-tui.*.1; do
    [ -e "$page" ] && gzip -9nc "$page" > "$root/usr/share/man/man1/$(basename "$page").gz"
done
# Sourced by bash-completion, never run: no #! line.
sed '1{/^#!/d}' "$stage/share/bash-completion/completions/fitiq-tui" > "$root/usr/share/bash-completion/completions/fitiq-tui"
cp "$stage/share/zsh/site-functions/_fitiq-tui" "$root/usr/share/zsh/vendor-completions/"
cp "$stage/share/fish/vendor_completions.d/fitiq-tui.fish" "$root/usr/share/fish/vendor_completions.d/"
gzip -9nc README.md > "$root/usr/share/doc/fitiq-tui/README.md.gz"
gzip -9nc CHANGELOG.md > "$root/usr/share/doc/fitiq-tui/changelog.gz"
cat > "$root/DEBIAN/control" <<CONTROL
Package: fitiq-tui
Version: $version
Architecture: $arch
Maintainer: $maintainer
Installed-Size: $(installed_size "$root")
Depends: $(shlibs "$root/usr/bin/fitiq-tui"), libcurl4
Recommends: libxml2, libsqlite3-0
Suggests: fitiq-dev-server
Section: utils
Priority: optional
Homepage: $homepage
Description: terminal editor for a FitIQ fitness profile and measurements
 fitiq-tui edits a FitIQ profile (name, bio, unit system, language) and
 its measurements (height, weight, body fat, with history, trends and
 goals) in a keyboard-driven terminal editor made for SSH sessions, and
 from scripts with the same commands (--json, --csv, exit codes).
 .
 Every change is saved on this machine first and then synced with the
 FitIQ server over libcurl, so nothing is lost while offline. It imports
 a history from Apple Health, Withings, Samsung Health, Fitbit, Google
 Fit, Health Connect, Garmin, Libra and Renpho exports; libxml2 and
 libsqlite3 are needed only for those imports.
CONTROL
finish fitiq-tui "$root"

# fitiq-dev-server: the development server `fitiq-tui demo` and testing use.
root="$work/fitiq-dev-server"
mkdir -p "$root/DEBIAN" "$root/usr/bin" "$root/usr/share/man/man1"
cp "$stage/bin/fitiq-dev-server" "$root/usr/bin/"
patchelf --remove-rpath "$root/usr/bin/fitiq-dev-server"
gzip -9nc "$stage/share/man/man1/fitiq-dev-server.1" > "$root/usr/share/man/man1/fitiq-dev-server.1.gz"
cat > "$root/DEBIAN/control" <<CONTROL
Package: fitiq-dev-server
Version: $version
Architecture: $arch
Maintainer: $maintainer
Installed-Size: $(installed_size "$root")
Depends: $(shlibs "$root/usr/bin/fitiq-dev-server")
Enhances: fitiq-tui
Section: devel
Priority: optional
Homepage: $homepage
Description: development server speaking the FitIQ backend's contract
 fitiq-dev-server answers the FitIQ backend's API (profiles, physical
 data, progress entries, tokens) from a SQLite database on this machine.
 fitiq-tui demo runs it on loopback with a demo account; it also serves
 trying out scripts against a server that is not the real one.
CONTROL
finish fitiq-dev-server "$root"
