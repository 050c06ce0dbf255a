#!/usr/bin/env python3
"""Seals LibTorch archives written before synmt sealed its own (core/sealed_zip.h).

synmt refuses an unsealed archive: LibTorch 1.13 reads a damaged one without noticing (flipped
bits) or crashes on it (a damaged data.pkl), so only files whose bytes are known good may be
sealed. Seal files you trust (e.g. checkpoints of your own earlier runs): the SHA-256 of the file
goes into the zip's end-of-archive comment as "synmt-sha256:<hex>", exactly as synmt writes it.
"""
import hashlib
import sys

EOCD = b"PK\x05\x06"


def seal(path):
    data = bytearray(open(path, "rb").read())
    if len(data) < 22 or data[-22:-18] != EOCD or data[-2:] != b"\0\0":
        raise SystemExit(f"{path}: not a zip archive without a comment (already sealed, or damaged)")
    comment = b"synmt-sha256:" + hashlib.sha256(data).hexdigest().encode()
    data[-2:] = len(comment).to_bytes(2, "little")
    open(path, "wb").write(bytes(data) + comment)
    print(f"{path}: sealed")


if __name__ == "__main__":
    if len(sys.argv) < 2:
        raise SystemExit("usage: seal_archive.py ARCHIVE...")
    for p in sys.argv[1:]:
        seal(p)
