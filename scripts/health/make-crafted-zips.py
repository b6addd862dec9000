#!/usr/bin/env python3
"""Hand-built export.zip files that zipfile cannot write, for the health reader's tests.

    make-crafted-zips.py OUTDIR

never-ending.zip   the member's deflate data ends in a stored block that claims 65,535 more
                   bytes: an inflater that keeps reading the archive copies the central
                   directory and then waits forever for input (as ZIPFoundation 0.9.20 on Linux did:
                   spins without calling back). Must end in an error, promptly.
past-eof.zip       the central directory claims 10 MB of compressed data in a 1 KB file.
bad-crc.zip        a complete, valid export whose recorded CRC-32 is off by one bit.
lying-bomb.zip     100 MB of spaces (about 100 KB deflated) whose header claims only 150x,
                   so only the streaming ratio check (or the declared-size check) can stop it.
Python 3.9+, standard library only.
"""
import os
import struct
import sys
import zlib

NAME = b"apple_health_export/export.xml"
HEAD = (b'<?xml version="1.0" encoding="UTF-8"?>\n<HealthData locale="en_US">\n'
        b' <ExportDate value="2025-06-01 09:12:44 +0200"/>\n <Record type="x" a="')


def deflate(chunks, final=True):
    c = zlib.compressobj(9, zlib.DEFLATED, -15)
    out = [c.compress(x) for x in chunks]
    out.append(c.flush(zlib.Z_FINISH if final else zlib.Z_SYNC_FLUSH))
    return b"".join(out)


def archive(body, crc, compressed, uncompressed):
    local = struct.pack("<IHHHHHIIIHH", 0x04034B50, 20, 0, 8, 0, 0, crc, compressed, uncompressed, len(NAME), 0)
    cd = struct.pack("<IHHHHHHIIIHHHHHII", 0x02014B50, 20, 20, 0, 8, 0, 0, crc, compressed, uncompressed,
                     len(NAME), 0, 0, 0, 0, 0, 0) + NAME
    start = len(local) + len(NAME) + len(body)
    eocd = struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, 1, 1, len(cd), start, 0)
    return local + NAME + body + cd + eocd


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    # a non-final stored block header (BFINAL=0, BTYPE=00) with LEN=65535, NLEN=0
    body = deflate([HEAD], final=False) + b"\x00" + struct.pack("<HH", 0xFFFF, 0x0000)
    with open(os.path.join(out, "never-ending.zip"), "wb") as f:
        f.write(archive(body, zlib.crc32(HEAD), len(body), 1 << 20))
    body = deflate([HEAD + b'"/></HealthData>\n'])
    with open(os.path.join(out, "past-eof.zip"), "wb") as f:
        f.write(archive(body, 0, 10_000_000, 1 << 20))
    document = HEAD + b'"/>\n <Me HKCharacteristicTypeIdentifierBiologicalSex="HKBiologicalSexMale"/>\n</HealthData>\n'
    body = deflate([document])
    with open(os.path.join(out, "bad-crc.zip"), "wb") as f:
        f.write(archive(body, zlib.crc32(document) ^ 1, len(body), len(document)))
    body = deflate([HEAD + b'"/>\n'] + [b" " * (1 << 20)] * 100 + [b"</HealthData>\n"])
    with open(os.path.join(out, "lying-bomb.zip"), "wb") as f:
        f.write(archive(body, 0, len(body), len(body) * 150))


if __name__ == "__main__":
    main()
