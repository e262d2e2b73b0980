#!/usr/bin/env python3
"""Evidence on a big journal (BENCHMARKS.md): the upgrade of a version-2 journal to the tree, and
the latency of `prove` and `bundle`, as commands (process start included) and as requests to a
running `journal serve` (one keep-alive connection).

    python3 bench/evidence_latency.py BASE_JOURNAL NEW_JOURNAL [--events N] [--runs R]
    python3 bench/evidence_latency.py NEW_JOURNAL --journal DB [--runs R]

BASE_JOURNAL is a build that writes version-2 journals (no tree): it simulates N events; NEW_JOURNAL
then opens that journal for writing once (`import /dev/null`), which builds the tree, and the
time of that command is the upgrade's. With --journal, NEW_JOURNAL measures an existing journal
(with its tree) instead, read only. Then NEW_JOURNAL signs a checkpoint (when the journal has
none) and `prove` and `bundle` run R times each on positions and streams drawn with a fixed
seed, then `GET /v1/proof/{position}` and `GET /v1/bundle/{stream}` R times each on the same
positions and streams; the table gives the median and the 95th percentile of the wall time of
each whole command, and of each request from its first byte sent to its last byte read.
"""
import argparse
import http.client
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


def p95(samples):
    return sorted(samples)[max(0, int(round(0.95 * len(samples))) - 1)]


def line(name, samples, unit):
    return (f"{name:<22}median {statistics.median(samples) * 1000:.2f} ms   p95 {p95(samples) * 1000:.2f} ms   "
            f"({len(samples)} {unit})")


def served(journal, db, cwd, paths):
    """The wall time of GET each of `paths` from `journal serve` on a free loopback port, over one
    keep-alive connection; each path is asked once untimed first."""
    server = subprocess.Popen([journal, "serve", "--listen", "127.0.0.1:0", "--db", db], cwd=cwd,
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        first = server.stdout.readline().strip()
        if not first.startswith("listening on http://"):
            sys.exit(f"journal serve did not start: {first!r}")
        host, port = first[len("listening on http://"):].rstrip("/").split(":")
        connection = http.client.HTTPConnection(host, int(port), timeout=30)
        times = []
        for path in paths:
            for timed in (False, True):
                start = time.perf_counter()
                connection.request("GET", path)
                response = connection.getresponse()
                body = response.read()
                seconds = time.perf_counter() - start
                if response.status != 200 or not body:
                    sys.exit(f"GET {path}: {response.status} {body[:200]!r}")
                if timed:
                    times.append(seconds)
        connection.close()
        return times
    finally:
        server.terminate()
        server.wait()


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("builds", nargs="+", metavar="BUILD", help="BASE_JOURNAL NEW_JOURNAL, or NEW_JOURNAL with --journal")
    parser.add_argument("--journal", help="an existing journal with its tree: no simulation, no upgrade")
    parser.add_argument("--events", type=int, default=10_000_000)
    parser.add_argument("--runs", type=int, default=30)
    args = parser.parse_args()
    if len(args.builds) != (1 if args.journal else 2):
        parser.error("give BASE_JOURNAL NEW_JOURNAL, or NEW_JOURNAL and --journal DB")
    new = os.path.abspath(args.builds[-1])
    folder = tempfile.mkdtemp(prefix="journal-evidence-")
    try:
        if args.journal:
            db = os.path.abspath(args.journal)
        else:
            base = os.path.abspath(args.builds[0])
            db = os.path.join(folder, "big.db")
            transactions = args.events // 8
            simulate, _ = run([base, "simulate", "--seed", "1", "--transactions", str(transactions),
                               "--digitizations", str(transactions // 5), "--db", db], folder)
            upgrade, _ = run([new, "import", "/dev/null", "--db", db], folder)
        size = latest_checkpoint_size(new, db, folder)
        if size is None:
            run([new, "keygen", "bench.example/journal", "--out", os.path.join(folder, "k.key")], folder)
            run([new, "checkpoint", "--key", os.path.join(folder, "k.key"), "--db", db], folder)
            size = latest_checkpoint_size(new, db, folder)
        rng = random.Random(7)
        positions = [rng.randint(1, size) for _ in range(args.runs)]
        streams = [first_stream(new, db, position, folder) for position in positions]
        prove, bundle = [], []
        for position, stream in zip(positions, streams):
            seconds, _ = run([new, "prove", str(position), "--db", db], folder)
            prove.append(seconds)
            seconds, _ = run([new, "bundle", stream, "--out", os.path.join(folder, "b.json"), "--db", db], folder)
            bundle.append(seconds)
        proof_requests = served(new, db, folder, [f"/v1/proof/{position}" for position in positions])
        bundle_requests = served(new, db, folder, [f"/v1/bundle/{stream}" for stream in streams])

        if args.journal:
            print(f"journal of {size} events ({db})")
        else:
            print(f"journal of {size} events (simulated by the base build in {simulate:.1f} s)")
            print(f"upgrade to the tree (first open for writing by the new build): {upgrade:.1f} s")
        print(line("prove", prove, "runs"))
        print(line("bundle", bundle, "runs"))
        print(line("GET /v1/proof/P", proof_requests, "requests"))
        print(line("GET /v1/bundle/STREAM", bundle_requests, "requests"))
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def latest_checkpoint_size(journal, db, cwd):
    """The tree size of the journal's latest kept checkpoint (what `prove` proves against), or None."""
    _, listed = run([journal, "checkpoint", "--list", "--format", "json", "--db", db], cwd, stdout=subprocess.PIPE)
    sizes = [int(item["size"]) for item in json.loads(listed.stdout)["checkpoints"]]
    return max(sizes) if sizes else None


if __name__ == "__main__":
    main()
