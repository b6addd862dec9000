#!/bin/sh
# The DEP-5 copyright file of PACKAGE: the project's licence, and the licence of every Swift package and
# runtime linked into its program (Package.swift: what each product depends on).
#
#   scripts/deb/copyright.sh fitiq-tui|fitiq-dev-server
set -eu
package=$1
cat <<HEAD
Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/
Upstream-Name: fitiq-tui
Source: https://github.com/fitiq/fitiq-tui

Files: *
Copyright: 2026 The fitiq-tui authors
License: Apache-2.0

Files: usr/bin/*
Copyright: 2014-2026 Apple Inc. and the Swift project authors
Comment: The Swift standard library, Foundation (FoundationEssentials) and the
 Swift runtime, linked statically into the program, under Apache-2.0 with the
 Swift Runtime Library Exception.
 .
 swift-argument-parser and swift-log (Apple Inc. and the Swift project
 authors), linked into the program, under Apache-2.0.
HEAD
if [ "$package" = fitiq-dev-server ]; then
    # The packages resolved for the build (.build/checkouts), each with the licence its LICENSE names.
    apache="" mit=""
    for checkout in .build/checkouts/*/; do
        name=$(basename "$checkout")
        [ "$name" = swift-argument-parser ] || [ "$name" = swift-log ] && continue
        if head -5 "$checkout"LICENSE* 2>/dev/null | grep -q 'Apache License'; then apache="$apache, $name"
        else mit="$mit, $name"; fi
    done
    printf ' .\n Linked into fitiq-dev-server as well, under Apache-2.0:\n'
    printf '%s\n' "${apache#, }" | fold -s -w 76 | sed 's/^/ /; s/ *$//'
    printf ' .\n Under the MIT licence: %s.\n' "${mit#, }"
    printf ' .\n swift-crypto carries BoringSSL, under the OpenSSL and ISC licences.\n'
    echo "License: Apache-2.0 and MIT and OpenSSL and ISC"
else
    echo "License: Apache-2.0"
fi
cat <<LICENCES

License: Apache-2.0
 Licensed under the Apache License, Version 2.0 (the "License"); you may not
 use this file except in compliance with the License.
 .
 On Debian systems, the full text of the Apache License, Version 2.0 can be
 found in /usr/share/common-licenses/Apache-2.0.
LICENCES
if [ "$package" = fitiq-dev-server ]; then
    cat <<MORE

License: MIT
 Permission is hereby granted, free of charge, to any person obtaining a copy
 of this software and associated documentation files (the "Software"), to deal
 in the Software without restriction, including without limitation the rights
 to use, copy, modify, merge, publish, distribute, sublicense, and/or sell
 copies of the Software, and to permit persons to whom the Software is
 furnished to do so, subject to the following conditions:
 .
 The above copyright notice and this permission notice shall be included in
 all copies or substantial portions of the Software.
 .
 THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR
 IMPLIED, INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY,
 FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT. IN NO EVENT SHALL THE
 AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER
 LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING FROM,
 OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN THE
 SOFTWARE.

License: OpenSSL
 BoringSSL, inside swift-crypto, is distributed under the OpenSSL licence.
 The full text is in BoringSSL's LICENSE file, shipped with swift-crypto.

License: ISC
 Permission to use, copy, modify, and/or distribute this software for any
 purpose with or without fee is hereby granted, provided that the above
 copyright notice and this permission notice appear in all copies.
MORE
fi
