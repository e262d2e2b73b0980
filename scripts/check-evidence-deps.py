#!/usr/bin/env python3
"""The Evidence library links neither SQLite, libpq nor LZ4 (docs/decisions/library-layout.md).

Walks the target graph of `swift package dump-package` from the target `Evidence` and fails when
its dependency closure holds one of the store's system libraries or the store itself, or when a
file of Sources/Evidence imports a module outside that closure (SwiftPM lets a module import
another module of the same build that it does not declare, so the manifest alone is not proof).

Usage: python3 scripts/check-evidence-deps.py [DUMP.json]   (default: runs swift package dump-package)
"""
import json
import os
import re
import subprocess
import sys
import tempfile

ROOT_TARGET = "Evidence"
FORBIDDEN = {"CSQLite", "CLibPQ", "CLZ4", "CJournalVFS", "EventStore"}
# Modules of the toolchain and the C library that any target may import.
SYSTEM_MODULES = {"Swift", "Glibc", "Darwin", "Foundation", "Synchronization", "_Concurrency"}


def load_manifest(argv):
    if len(argv) > 1:
        with open(argv[1], encoding="utf-8") as handle:
            return json.load(handle)
    # A scratch path of its own: the worktree's .build may be locked by a build.
    with tempfile.TemporaryDirectory(prefix="evidence-deps-") as scratch:
        output = subprocess.run(
            ["swift", "package", "--scratch-path", scratch, "dump-package"],
            check=True, capture_output=True, text=True).stdout
    return json.loads(output)


def dependency_names(target):
    names = []
    for dependency in target.get("dependencies", []):
        for kind in ("byName", "target", "product"):
            if kind in dependency:
                names.append(dependency[kind][0])
    return names


def closure(targets, root):
    seen, stack = set(), [root]
    while stack:
        name = stack.pop()
        if name in seen:
            continue
        seen.add(name)
        if name in targets:
            stack.extend(dependency_names(targets[name]))
    return seen


def main(argv):
    manifest = load_manifest(argv)
    targets = {target["name"]: target for target in manifest["targets"]}
    if ROOT_TARGET not in targets:
        print(f"check-evidence-deps: no target {ROOT_TARGET} in Package.swift")
        return 1
    reached = closure(targets, ROOT_TARGET)
    failures = [f"{ROOT_TARGET} depends on {name}" for name in sorted(reached & FORBIDDEN)]
    path = targets[ROOT_TARGET].get("path") or f"Sources/{ROOT_TARGET}"
    pattern = re.compile(r"^\s*(?:@_\w+\s+)?(?:(?:public|package|internal)\s+)?import\s+(\w+)", re.M)
    for folder, _, files in os.walk(path):
        for name in sorted(files):
            if not name.endswith(".swift"):
                continue
            file = os.path.join(folder, name)
            with open(file, encoding="utf-8") as handle:
                for module in pattern.findall(handle.read()):
                    if module not in reached and module not in SYSTEM_MODULES:
                        failures.append(f"{file} imports {module}, outside {ROOT_TARGET}'s dependencies")
    for failure in failures:
        print(f"check-evidence-deps: {failure}")
    if not failures:
        print(f"ok: {ROOT_TARGET} depends on {', '.join(sorted(reached - {ROOT_TARGET}))}; "
              f"none of {', '.join(sorted(FORBIDDEN))}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
