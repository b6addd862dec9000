#!/bin/sh
# Installs fitiq-tui from the folder this script is in (bin/, share/: a `make dist` tarball or
# `make install`'s staging folder) into PREFIX, and removes exactly that again.
#
#   ./install.sh [PREFIX]               install (PREFIX defaults to $HOME/.local)
#   ./install.sh --uninstall [PREFIX]   remove what an install into PREFIX wrote
#
# Every file written and every folder created is listed in PREFIX/share/fitiq-tui/installed, which
# --uninstall reads: files are removed, then the folders the install created, when empty.
set -eu

uninstall=""
if [ "${1:-}" = "--uninstall" ]; then
    uninstall=1
    shift
fi
prefix="${1:-${HOME:?set HOME or give a PREFIX}/.local}"
here=$(cd "$(dirname "$0")" && pwd)
manifest="$prefix/share/fitiq-tui/installed"

if [ -n "$uninstall" ]; then
    if [ ! -f "$manifest" ]; then
        echo "Nothing to remove: $manifest does not exist (fitiq-tui is not installed in $prefix)." >&2
        exit 1
    fi
    # Files first, then the folders the installs created, deepest first, when empty.
    folders=$(grep '^d ' "$manifest.folders" 2>/dev/null | cut -c3- | sort -r || true)
    grep '^f ' "$manifest" | cut -c3- | while IFS= read -r path; do
        rm -f "$prefix/$path"
    done
    rm -f "$manifest" "$manifest.folders"
    printf '%s\n' "$folders" | while IFS= read -r path; do
        case "$path" in
            "") ;;
            .) rmdir "$prefix" 2>/dev/null || true ;;
            *) rmdir "$prefix/$path" 2>/dev/null || true ;;
        esac
    done
    echo "Removed fitiq-tui from $prefix."
    exit 0
fi

for folder in bin share; do
    [ -d "$here/$folder" ] || { echo "error: $here/$folder is missing; run this from an unpacked release." >&2; exit 1; }
done

files=$(cd "$here" && find bin share -type f | sort)
folders=$(cd "$here" && find bin share -type d | sort)
created=""
for folder in . $folders share/fitiq-tui; do
    if [ ! -d "$prefix/$folder" ]; then
        mkdir -p "$prefix/$folder"
        created="$created
d $folder"
    fi
done
# A previous install's list of created folders is kept: those folders are still ours to remove.
[ -f "$manifest.folders" ] && created="$(cat "$manifest.folders")$created"
printf '%s\n' "$created" | sed '/^$/d' | sort -u > "$manifest.folders"
: > "$manifest"
for file in $files; do
    case "$file" in
        bin/*) mode=755 ;;
        *) mode=644 ;;
    esac
    # Into a temporary name, then renamed: a running fitiq-tui is never overwritten in place.
    cp "$here/$file" "$prefix/$file.installing"
    chmod "$mode" "$prefix/$file.installing"
    mv -f "$prefix/$file.installing" "$prefix/$file"
    echo "f $file" >> "$manifest"
done
echo "Installed fitiq-tui into $prefix:"
sed 's/^f /  /' "$manifest"
case ":$PATH:" in
    *":$prefix/bin:"*) ;;
    *) echo "Add $prefix/bin to your PATH to run fitiq-tui." ;;
esac
