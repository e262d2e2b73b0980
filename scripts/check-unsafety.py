#!/usr/bin/env python3
"""Unsafety stays contained (docs/decisions/contained-unsafety.md).

Fails when, in Sources:
- `@unchecked Sendable` occurs more than MAX_UNCHECKED times, or once without its reason: a `//`
  comment saying "Unchecked" on the line just above it (or just below);
- `import Glibc` (or Darwin) occurs outside the system and synchronization layers of JournalCore.

Usage: python3 scripts/check-unsafety.py [SOURCES]   (default: Sources)
"""
import os
import re
import sys

MAX_UNCHECKED = 10
# The only folders whose files may call the C library directly.
C_LIBRARY_FOLDERS = ("JournalCore/System", "JournalCore/Synchronization")
# And these, whose calls have no wrapper in JournalCore: the test support's process spawning
# (CSpawn's header cannot join JournalCore), the benchmark's own system layer (child processes
# with their resource usage) and the PostgreSQL benchmark's writer processes.
C_LIBRARY_EXCEPTIONS = ("JournalTestSupport/ChildProgram.swift", "bench/System.swift", "journal-pg-writer/Bench.swift")
C_LIBRARY_IMPORT = re.compile(r"^\s*(@\w+(\([^)]*\))?\s+)*import\s+(Glibc|Darwin|Musl)\b")


def is_reason(line):
    stripped = line.strip()
    return stripped.startswith("//") and "unchecked" in stripped.lower()


def main(argv):
    root = argv[1] if len(argv) > 1 else "Sources"
    unchecked = []
    problems = []
    for folder, _, files in sorted(os.walk(root)):
        for name in sorted(files):
            if not name.endswith(".swift"):
                continue
            path = os.path.join(folder, name)
            relative = os.path.relpath(path, root)
            with open(path, encoding="utf-8") as handle:
                lines = handle.read().splitlines()
            for index, line in enumerate(lines):
                code = line.split("//", 1)[0]
                if "@unchecked Sendable" in code:
                    unchecked.append(f"{path}:{index + 1}")
                    above = lines[index - 1] if index > 0 else ""
                    below = lines[index + 1] if index + 1 < len(lines) else ""
                    if not (is_reason(above) or is_reason(below)):
                        problems.append(
                            f"{path}:{index + 1}: @unchecked Sendable without a `// Unchecked Sendable: reason` "
                            "comment on the line above")
                if C_LIBRARY_IMPORT.match(line) and not relative.startswith(C_LIBRARY_FOLDERS + C_LIBRARY_EXCEPTIONS):
                    problems.append(
                        f"{path}:{index + 1}: the C library is imported outside "
                        f"{' and '.join('Sources/' + f for f in C_LIBRARY_FOLDERS)}: add a wrapper there")
    if len(unchecked) > MAX_UNCHECKED:
        problems.append(
            f"{len(unchecked)} @unchecked Sendable in {root} (at most {MAX_UNCHECKED}): "
            + ", ".join(unchecked))
    for problem in problems:
        print(problem, file=sys.stderr)
    if problems:
        return 1
    print(f"unsafety contained: {len(unchecked)} @unchecked Sendable (at most {MAX_UNCHECKED}), "
          "the C library imported only in " + " and ".join(C_LIBRARY_FOLDERS))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
