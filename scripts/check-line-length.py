#!/usr/bin/env python3
"""Fails, naming file:line, when a Swift line is longer than the limit (120 characters).

    scripts/check-line-length.py [--limit N] [PATH ...]    (default: the tree's Swift sources)

`swift format lint` reports only the lines it could break; string literals and comments it
leaves alone, so this check covers them. Characters, not bytes, are counted (the sources hold
UTF-8 such as "…" and "→"). Exit status: 0 when every line fits, 1 otherwise, 2 on bad usage.
"""

import pathlib
import sys

DEFAULT_PATHS = ["Sources", "Tests", "bench", "tools", "Package.swift"]


def swift_files(paths):
    for name in paths:
        path = pathlib.Path(name)
        if path.is_file():
            yield path
        elif path.is_dir():
            yield from sorted(p for p in path.rglob("*.swift") if ".build" not in p.parts)
        else:
            sys.exit(f"check-line-length: {name}: no such file or folder")


def main(argv):
    limit, paths = 120, []
    args = iter(argv)
    for arg in args:
        if arg == "--limit":
            value = next(args, None)
            if value is None or not value.isdigit():
                print("usage: check-line-length.py [--limit N] [PATH ...]", file=sys.stderr)
                return 2
            limit = int(value)
        else:
            paths.append(arg)
    long_lines = 0
    for path in swift_files(paths or DEFAULT_PATHS):
        text = path.read_text(encoding="utf-8")
        for number, line in enumerate(text.splitlines(), start=1):
            if len(line) > limit:
                print(f"{path}:{number}: {len(line)} characters (at most {limit})")
                long_lines += 1
    if long_lines:
        print(f"check-line-length: {long_lines} line(s) longer than {limit} characters", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
