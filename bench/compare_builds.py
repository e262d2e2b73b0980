#!/usr/bin/env python3
"""Two builds of `journal` on the same workload, in one run, alternating (BENCHMARKS.md).

    python3 bench/compare_builds.py BASE_JOURNAL NEW_JOURNAL [--events N] [--runs R] [--big N]
    python3 bench/compare_builds.py BASE NEW --journal PATH --steps "replay --all,verify" --runs 5
    python3 bench/compare_builds.py BASE NEW --import-only --events 500000 --runs 5
    python3 bench/compare_builds.py BASE NEW --serve 10 --runs 3

Each step runs R times per build, base and new alternating, on the same input; the table gives
the median wall time, the median CPU time (user + system of the child: what the code costs
whatever else the machine does) and new/base ratios. Steps: import of an NDJSON file into a new
journal, replay --all, project --rebuild and verify of the imported journal, and simulate of
--big events into a new journal (the load path). Everything runs in a temporary folder that is
removed at the end. --import-only runs the import step alone.

With --journal, the read steps (replay --all, project --rebuild, verify; --steps picks some) run
on that journal instead (rebuild on a copy per run), with no import or simulate, and the table
says whether both builds printed the same bytes (`project --rebuild` prints its own timing: "n/a").

With --serve SECONDS, only `journal serve` on a fresh journal under bench/serve/loadgen.c (64
clients, one event per request, SECONDS each run): the server's CPU time over the load (from
/proc/PID/stat) per acknowledged event, the bench's serve row, base and new alternating.
"""
import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time


def timed(command, cwd):
    """Wall and CPU seconds of one child process (which must succeed)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    result = subprocess.run(command, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if result.returncode != 0:
        sys.exit(f"failed ({result.returncode}): {' '.join(command)}\n{result.stderr.decode()}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def remove_journal(path):
    for suffix in ("", "-wal", "-shm"):
        if os.path.exists(path + suffix):
            os.remove(path + suffix)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("base")
    parser.add_argument("new")
    parser.add_argument("--events", type=int, default=500_000, help="events of the import workload")
    parser.add_argument("--big", type=int, default=2_000_000, help="events of the simulate step")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--journal", help="an existing journal for the read steps only")
    parser.add_argument("--import-only", action="store_true", help="only the import into a new journal")
    parser.add_argument("--serve", type=int, metavar="SECONDS", help="only journal serve under the load generator")
    parser.add_argument("--steps", default="replay --all,project --rebuild,verify",
                        help="with --journal: the read steps, comma-separated")
    args = parser.parse_args()
    builds = {"base": os.path.abspath(args.base), "new": os.path.abspath(args.new)}
    if args.serve:
        return compare_serve(builds, args.serve, args.runs)
    if args.journal:
        return compare_reads(builds, os.path.abspath(args.journal), args.steps.split(","), args.runs)
    folder = tempfile.mkdtemp(prefix="journal-compare-")
    try:
        workload = os.path.join(folder, "workload.ndjson")
        transactions = args.events // 8
        with open(workload, "wb") as out:
            subprocess.run([builds["new"], "simulate", "--seed", "1", "--transactions", str(transactions),
                            "--digitizations", str(transactions // 5), "--ndjson"], stdout=out, check=True)
        with open(workload, "rb") as f:
            events = sum(1 for _ in f)
        results = {}

        def record(step, build, sample):
            results.setdefault(step, {}).setdefault(build, []).append(sample)

        for run in range(args.runs):
            for build, journal in builds.items():
                db = os.path.join(folder, f"{build}.db")
                remove_journal(db)
                record("import", build, timed([journal, "import", workload, "--db", db], folder))
        read_steps = [("replay --all", ["replay", "--all"]), ("project --rebuild", ["project", "--rebuild"]),
                      ("verify", ["verify"])]
        for step, command in [] if args.import_only else read_steps:
            for run in range(args.runs):
                for build, journal in builds.items():
                    db = os.path.join(folder, f"{build}.db")
                    record(step, build, timed([journal] + command + ["--db", db], folder))
        big_transactions = args.big // 8
        for run in range(0 if args.import_only else args.runs):
            for build, journal in builds.items():
                db = os.path.join(folder, f"{build}-big.db")
                remove_journal(db)
                record("simulate (load)", build, timed(
                    [journal, "simulate", "--seed", "1", "--transactions", str(big_transactions),
                     "--digitizations", str(big_transactions // 5), "--db", db], folder))
                remove_journal(db)

        print(f"import workload: {events} events; simulate: {args.big} events requested; {args.runs} runs, alternating")
        print(f"{'step':<20}{'base wall s':>12}{'new wall s':>12}{'new/base':>10}{'base cpu s':>12}{'new cpu s':>12}{'new/base':>10}")
        for step, by_build in results.items():
            base_wall = statistics.median(s[0] for s in by_build["base"])
            new_wall = statistics.median(s[0] for s in by_build["new"])
            base_cpu = statistics.median(s[1] for s in by_build["base"])
            new_cpu = statistics.median(s[1] for s in by_build["new"])
            print(f"{step:<20}{base_wall:>12.2f}{new_wall:>12.2f}{new_wall / base_wall:>10.3f}"
                  f"{base_cpu:>12.2f}{new_cpu:>12.2f}{new_cpu / base_cpu:>10.3f}")
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def compare_reads(builds, journal, steps, runs):
    """The read steps on an existing journal, alternating, with their outputs compared."""
    folder = tempfile.mkdtemp(prefix="journal-compare-")
    try:
        print(f"journal: {journal}; {runs} runs, alternating")
        print(f"{'step':<20}{'base wall s':>12}{'new wall s':>12}{'new/base':>10}{'base cpu s':>12}{'new cpu s':>12}"
              f"{'new/base':>10}  same output")
        for step in steps:
            samples = {"base": [], "new": []}
            outputs = {}
            for run in range(runs):
                for build, binary in builds.items():
                    db = journal
                    if step.startswith("project"):
                        db = os.path.join(folder, "copy.db")
                        shutil.copyfile(journal, db)
                    output = os.path.join(folder, f"{build}.out")
                    with open(output, "wb") as out:
                        before = resource.getrusage(resource.RUSAGE_CHILDREN)
                        start = time.perf_counter()
                        result = subprocess.run([binary] + step.split() + ["--db", db], stdout=out,
                                                stderr=subprocess.PIPE)
                        wall = time.perf_counter() - start
                        after = resource.getrusage(resource.RUSAGE_CHILDREN)
                    if result.returncode != 0:
                        sys.exit(f"failed ({result.returncode}): {step}\n{result.stderr.decode()}")
                    samples[build].append((wall, (after.ru_utime - before.ru_utime)
                                           + (after.ru_stime - before.ru_stime)))
                    with open(output, "rb") as f:
                        outputs[build] = f.read()
                    if step.startswith("project"):
                        remove_journal(db)
            same = "n/a" if step.startswith("project") else outputs["base"] == outputs["new"]
            base_wall = statistics.median(s[0] for s in samples["base"])
            new_wall = statistics.median(s[0] for s in samples["new"])
            base_cpu = statistics.median(s[1] for s in samples["base"])
            new_cpu = statistics.median(s[1] for s in samples["new"])
            print(f"{step:<20}{base_wall:>12.2f}{new_wall:>12.2f}{new_wall / base_wall:>10.3f}"
                  f"{base_cpu:>12.2f}{new_cpu:>12.2f}{new_cpu / base_cpu:>10.3f}  {same}")
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def serve_once(journal, loadgen, seconds, folder):
    """One server on a fresh journal under the load generator: (events/s, µs server CPU per event)."""
    db = os.path.join(folder, "serve.db")
    remove_journal(db)
    with open(os.path.join(folder, "serve.err"), "wb") as log:
        server = subprocess.Popen([journal, "serve", "--db", db, "--listen", "127.0.0.1:0"], stdout=subprocess.PIPE,
                                  stderr=log)
    try:
        line = server.stdout.readline().decode()
        if not line.startswith("listening on http://127.0.0.1:"):
            sys.exit(f"journal serve did not start: {line!r}")
        port = line.strip().rsplit(":", 1)[1]
        ticks = os.sysconf("SC_CLK_TCK")

        def cpu():
            with open(f"/proc/{server.pid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            return (int(fields[11]) + int(fields[12])) / ticks

        before = cpu()
        result = subprocess.run([loadgen, port, "64", str(seconds)], stdout=subprocess.PIPE, check=True)
        after = cpu()
    finally:
        server.terminate()
        server.wait()
    report = json.loads(result.stdout)
    return report["eventsPerSecond"], (after - before) * 1e6 / report["acknowledged"]


def compare_serve(builds, seconds, runs):
    """The bench's serve row, base and new alternating."""
    folder = tempfile.mkdtemp(prefix="journal-compare-")
    try:
        loadgen = os.path.join(folder, "serve-loadgen")
        source = os.path.join(os.path.dirname(os.path.abspath(__file__)), "serve", "loadgen.c")
        subprocess.run(["cc", "-O2", "-pthread", "-o", loadgen, source], check=True)
        samples = {"base": [], "new": []}
        for run in range(runs):
            for build, journal in builds.items():
                rate, micros = serve_once(journal, loadgen, seconds, folder)
                samples[build].append((rate, micros))
                print(f"run {run + 1} {build}: {rate:.0f} ev/s, {micros:.1f} µs server CPU per event", flush=True)
        print(f"serve, 64 clients × 1 event, {seconds} s; {runs} runs, alternating")
        print(f"{'build':<8}{'ev/s':>10}{'µs CPU/event':>14}  runs (µs)")
        for build, values in samples.items():
            print(f"{build:<8}{statistics.median(v[0] for v in values):>10.0f}"
                  f"{statistics.median(v[1] for v in values):>14.1f}  {[round(v[1], 1) for v in values]}")
        base = statistics.median(v[1] for v in samples["base"])
        print(f"new/base µs CPU per event: {statistics.median(v[1] for v in samples['new']) / base:.3f}")
    finally:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
