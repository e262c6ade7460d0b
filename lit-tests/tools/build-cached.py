#!/usr/bin/env python3
"""Compile once per cell, not once per check.

Usage: build-cached.py --cache DIR [--deps DIR]... -- COMPILER ARGS... -o OUT

The key is the compiler command line plus the contents of every input file
named on it and of every header under the --deps directories. A hit hard-links
(or copies) the cached binary to OUT; a miss compiles into the cache first.
Concurrent lit workers building the same key are safe: each compiles to a
private temporary name and renames it into place atomically.
"""
import argparse
import hashlib
import os
import shutil
import subprocess
import sys
import tempfile


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--cache", required=True)
    parser.add_argument("--deps", action="append", default=[])
    parser.add_argument("command", nargs=argparse.REMAINDER)
    args = parser.parse_args()
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    if "-o" not in command or command.index("-o") + 1 >= len(command):
        print("build-cached: the compile command needs -o OUT", file=sys.stderr)
        return 2
    out_index = command.index("-o") + 1
    out = command[out_index]

    key = hashlib.sha256()
    # The compiler itself: an upgraded package under the same name must not
    # reuse binaries built by the old one.
    compiler = shutil.which(command[0]) if command else None
    if compiler:
        stat = os.stat(os.path.realpath(compiler))
        key.update(f"{os.path.realpath(compiler)}:{stat.st_size}:{stat.st_mtime_ns}\0".encode())
    for i, word in enumerate(command):
        if i == out_index:
            continue
        key.update(word.encode() + b"\0")
        if os.path.isfile(word):
            with open(word, "rb") as f:
                key.update(f.read())
    for root in args.deps:
        for dirpath, _, files in sorted(os.walk(root)):
            for name in sorted(files):
                path = os.path.join(dirpath, name)
                key.update(path.encode())
                with open(path, "rb") as f:
                    key.update(f.read())
    cached = os.path.join(args.cache, key.hexdigest())

    if not os.path.exists(cached):
        os.makedirs(args.cache, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=args.cache, prefix=".build-")
        os.close(fd)
        compile_command = list(command)
        compile_command[out_index] = tmp
        result = subprocess.run(compile_command)
        if result.returncode != 0:
            # The compiler may already have removed its failed output.
            if os.path.exists(tmp):
                os.unlink(tmp)
            return result.returncode
        os.replace(tmp, cached)

    if os.path.exists(out):
        os.unlink(out)
    try:
        os.link(cached, out)
    except OSError:
        shutil.copy2(cached, out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
