#!/usr/bin/env python3
"""The naive loader: the baseline `journal import` is measured against.

What anyone would write in an afternoon to load an NDJSON file of journal envelopes
(`journal export`, `journal simulate --ndjson`) into SQLite with the standard library only:
`json.loads` per line, the stream's version counted in file order, and each line's JSON text
stored as it is, in a table with a unique index on the event id and one on (stream, version);
a commit every 1000 rows, the database in WAL mode with SQLite's default synchronous=FULL. No
validation, no hash chain, no compression, no duplicate handling (a repeated id fails).

Usage: naive_loader.py FILE [--runs N] [--dir DIR]

Loads FILE into a fresh database per run and prints one JSON object on stdout:
  naive_loader_eps      events per wall-clock second (median of the runs)
  naive_loader_cpu_eps  events per CPU second of this process (user + system)
  naive_loader_events   the events of FILE
"""
import argparse
import json
import os
import sqlite3
import statistics
import sys
import tempfile
import time

BATCH = 1000


def load(path, database):
    connection = sqlite3.connect(database, isolation_level=None)
    connection.execute("PRAGMA journal_mode = WAL")
    connection.execute(
        "CREATE TABLE events (position INTEGER PRIMARY KEY, id TEXT NOT NULL, stream TEXT NOT NULL, "
        "version INTEGER NOT NULL, type TEXT NOT NULL, occurred_at TEXT NOT NULL, body TEXT NOT NULL)")
    connection.execute("CREATE UNIQUE INDEX events_id ON events (id)")
    connection.execute("CREATE UNIQUE INDEX events_stream_version ON events (stream, version)")
    versions = {}
    rows = []
    count = 0

    def flush():
        connection.execute("BEGIN")
        connection.executemany(
            "INSERT INTO events (id, stream, version, type, occurred_at, body) VALUES (?, ?, ?, ?, ?, ?)", rows)
        connection.execute("COMMIT")
        rows.clear()

    with open(path, "rb") as handle:
        for line in handle:
            if not line.strip():
                continue
            envelope = json.loads(line)
            stream = envelope["stream"]
            version = versions.get(stream, -1) + 1
            versions[stream] = version
            rows.append((envelope["id"], stream, version, envelope["type"], envelope["occurredAt"],
                         line.decode("utf-8").rstrip("\r\n")))
            count += 1
            if len(rows) == BATCH:
                flush()
    if rows:
        flush()
    connection.close()
    return count


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("file")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--dir", default=None)
    arguments = parser.parse_args()
    rates, cpu_rates, events = [], [], 0
    with tempfile.TemporaryDirectory(dir=arguments.dir, prefix="naive-loader-") as directory:
        for run in range(arguments.runs):
            database = os.path.join(directory, f"naive-{run}.db")
            wall, cpu = time.monotonic(), time.process_time()
            events = load(arguments.file, database)
            wall, cpu = time.monotonic() - wall, time.process_time() - cpu
            rates.append(events / wall)
            cpu_rates.append(events / cpu if cpu > 0 else 0.0)
            for suffix in ("", "-wal", "-shm"):
                try:
                    os.remove(database + suffix)
                except FileNotFoundError:
                    pass
    print(json.dumps({
        "naive_loader_eps": statistics.median(rates),
        "naive_loader_cpu_eps": statistics.median(cpu_rates),
        "naive_loader_events": events,
    }))


if __name__ == "__main__":
    try:
        main()
    except Exception as error:  # reported by the bench as the reason the row is skipped
        print(f"naive loader failed: {error}", file=sys.stderr)
        sys.exit(1)
