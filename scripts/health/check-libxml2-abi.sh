#!/usr/bin/env bash
# Checks that Sources/CLibXML2/shim.h declares libxml2's types and constants as the installed
# headers do (libxml2-dev): the same program is compiled once against the shim and once against
# <libxml/...>, and the sizes, field offsets and values it prints must match.
#
#   scripts/health/check-libxml2-abi.sh
set -euo pipefail
cd "$(dirname "$0")/../.."

CC=${CC:-cc}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

cat >"$work/probe.c" <<'C'
#include <stddef.h>
#include <stdio.h>
#ifdef USE_SHIM
#include "shim.h"
#else
#include <libxml/parser.h>
#include <libxml/SAX2.h>
#endif
#define SHOW(expr) printf("%s = %ld\n", #expr, (long)(expr))
int main(void) {
    SHOW(sizeof(xmlChar));
    SHOW(sizeof(xmlSAXHandler));
    SHOW(offsetof(xmlSAXHandler, initialized));
    SHOW(offsetof(xmlSAXHandler, _private));
    SHOW(offsetof(xmlSAXHandler, startElementNs));
    SHOW(offsetof(xmlSAXHandler, endElementNs));
    SHOW(offsetof(xmlSAXHandler, serror));
    SHOW(sizeof(xmlError));
    SHOW(offsetof(xmlError, code));
    SHOW(offsetof(xmlError, message));
    SHOW(offsetof(xmlError, level));
    SHOW(offsetof(xmlError, line));
    SHOW(sizeof(((xmlError *)0)->level));
    SHOW(XML_SAX2_MAGIC);
    SHOW(XML_PARSE_NONET);
    SHOW(XML_PARSE_IGNORE_ENC);
    SHOW(XML_ERR_WARNING);
    SHOW(XML_ERR_ERROR);
    SHOW(XML_ERR_FATAL);
    SHOW(XML_ERR_DOCUMENT_EMPTY);
    SHOW(XML_ERR_DOCUMENT_END);
    SHOW(XML_ERR_INVALID_CHAR);
    SHOW(XML_ERR_ATTRIBUTE_NOT_FINISHED);
    SHOW(XML_ERR_ATTRIBUTE_WITHOUT_VALUE);
    SHOW(XML_ERR_LITERAL_NOT_FINISHED);
    SHOW(XML_ERR_SPACE_REQUIRED);
    SHOW(XML_ERR_NAME_REQUIRED);
    SHOW(XML_ERR_GT_REQUIRED);
    SHOW(XML_ERR_LTSLASH_REQUIRED);
    SHOW(XML_ERR_TAG_NOT_FINISHED);
    return 0;
}
C

"$CC" -DUSE_SHIM -I Sources/CLibXML2 -o "$work/shim" "$work/probe.c"
# shellcheck disable=SC2046
"$CC" $(pkg-config --cflags libxml-2.0) -o "$work/system" "$work/probe.c"
"$work/shim" >"$work/shim.txt"
"$work/system" >"$work/system.txt"
if ! diff -u "$work/system.txt" "$work/shim.txt"; then
    echo "check-libxml2-abi: Sources/CLibXML2/shim.h differs from the installed libxml2 headers (- system, + shim)" >&2
    exit 1
fi
echo "check-libxml2-abi: shim.h matches libxml2 $(pkg-config --modversion libxml-2.0) ($(wc -l <"$work/shim.txt") checks)"
