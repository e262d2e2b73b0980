#!/usr/bin/env python3
"""Evidence on a big journal (BENCHMARKS.md): the upgrade of a version-2 journal to the tree, and
the latency of `prove` and `bundle` with process start included.

    python3 bench/evidence_latency.py BASE_JOURNAL NEW_JOURNAL [--events N] [--runs R]

BASE_JOURNAL is a build that writes version-2 journals (no tree): it simulates N events; NEW_JOURNAL
then opens that journal for writing once (`import /dev/null`), which builds the tree, and the
time of that command is the upgrade's. Then NEW_JOURNAL signs a checkpoint and `prove` and
`bundle` run R times each on positions and streams drawn with a fixed seed; the table gives the
median and the 95th percentile of the wall time of each whole command.
"""
import argparse
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time


def run(command, cwd, stdout=subprocess.DEVNULL):
    start = time.perf_counter()
    result = subprocess.run(command, cwd=cwd, stdout=stdout, stderr=subprocess.PIPE)
    if result.returncode != 0:
        sys.exit(f"failed ({result.returncode}): {' '.join(command)}\n{result.stderr.decode()}")
    return time.perf_counter() - start, result


def first_stream(journal, db, position, cwd):
    """The stream of the event at `position` (the first export line from there; the rest unread)."""
    export = subprocess.Popen([journal, "export", "--from-position", str(position), "--db", db], cwd=cwd,
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    line = export.stdout.readline()
    export.kill()
    export.wait()
    return json.loads(line)["stream"]


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("base")
    parser.add_argument("new")
    parser.add_argument("--events", type=int, default=10_000_000)
    parser.add_argument("--runs", type=int, default=30)
    args = parser.parse_args()
    base, new = os.path.abspath(args.base), os.path.abspath(args.new)
    folder = tempfile.mkdtemp(prefix="journal-evidence-")
    try:
        db = os.path.join(folder, "big.db")
        transactions = args.events // 8
        simulate, _ = run([base, "simulate", "--seed", "1", "--transactions", str(transactions),
                           "--digitizations", str(transactions // 5), "--db", db], folder)
        upgrade, _ = run([new, "import", "/dev/null", "--db", db], folder)
        run([new, "keygen", "bench.example/journal", "--out", os.path.join(folder, "k.key")], folder)
        run([new, "checkpoint", "--key", os.path.join(folder, "k.key"), "--db", db], folder)
        _, head = run([new, "verify", "--format", "json", "--db", db], folder, stdout=subprocess.PIPE)
        size = json.loads(head.stdout)["headPosition"]
        rng = random.Random(7)
        prove, bundle = [], []
        for _ in range(args.runs):
            position = rng.randint(1, size)
            seconds, _ = run([new, "prove", str(position), "--db", db], folder)
            prove.append(seconds)
            stream = first_stream(new, db, position, folder)
            seconds, _ = run([new, "bundle", stream, "--out", os.path.join(folder, "b.json"), "--db", db], folder)
            bundle.append(seconds)

        def p95(samples):
            return sorted(samples)[max(0, int(round(0.95 * len(samples))) - 1)]

        print(f"journal of {size} events (simulated by the base build in {simulate:.1f} s)")
        print(f"upgrade to the tree (first open for writing by the new build): {upgrade:.1f} s")
        print(f"prove   median {statistics.median(prove) * 1000:.1f} ms   p95 {p95(prove) * 1000:.1f} ms   ({args.runs} runs)")
        print(f"bundle  median {statistics.median(bundle) * 1000:.1f} ms   p95 {p95(bundle) * 1000:.1f} ms   ({args.runs} runs)")
    finally:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
