#!/usr/bin/env python3
"""The peer benchmark: Python `eventsourcing` 9.5.6 on SQLite, fed the same events as the journal.

Reads an NDJSON file of journal envelopes (`journal simulate --ndjson` or `journal export`), maps each
event to an `eventsourcing` StoredEvent (originator_id = the stream's UUID, originator_version = its
version in file order, topic = the event type, state = the event's JSON bytes as the journal stores
them) and measures, on a fresh database file per run:

  append_b{1000,100,10,1}_eps  SQLiteApplicationRecorder.insert_events, one transaction per batch
  read_all_eps                 select_notifications(limit=1000) pages, every state's bytes touched
                               (like the journal's read_all: rows to objects, no JSON parsing)
  bytes_per_event              database file size / events after the 1000-per-commit run

synchronous=FULL is checked (Debian's WAL default; the library does not set it). Prints one JSON
object with `peer_*` keys (medians of --runs) on stdout. Exits 0; errors go to stderr.
"""
import argparse
import json
import os
import sqlite3
import statistics
import sys
import tempfile
import time
import uuid

try:
    from eventsourcing.persistence import StoredEvent
    from eventsourcing.sqlite import SQLiteApplicationRecorder, SQLiteDatastore
except ImportError as error:  # pragma: no cover - reported by the wrapper script
    print(f"eventsourcing not importable: {error}", file=sys.stderr)
    sys.exit(3)


def load_events(path, limit):
    versions = {}
    events = []
    with open(path, "rb") as handle:
        for line in handle:
            if not line.strip():
                continue
            envelope = json.loads(line)
            stream = envelope["stream"]
            originator = uuid.UUID(stream.split("-", 1)[1])
            version = versions.get(originator, -1) + 1
            versions[originator] = version
            state = json.dumps(
                {"id": envelope["id"], "occurredAt": envelope["occurredAt"],
                 "data": envelope["data"], "meta": envelope.get("meta")},
                separators=(",", ":")).encode()
            events.append(StoredEvent(originator_id=originator, originator_version=version,
                                      topic=envelope["type"], state=state))
            if limit and len(events) >= limit:
                break
    return events


def fresh_recorder(directory, name):
    path = os.path.join(directory, name)
    datastore = SQLiteDatastore(db_name=path)
    recorder = SQLiteApplicationRecorder(datastore)
    recorder.create_table()
    with datastore.transaction(commit=False) as cursor:
        cursor.execute("PRAGMA synchronous")
        synchronous = cursor.fetchone()[0]
    if synchronous != 2:
        print(f"warning: synchronous={synchronous}, expected 2 (FULL)", file=sys.stderr)
    return datastore, recorder, path


def measure_append(events, batch, directory, run):
    datastore, recorder, path = fresh_recorder(directory, f"peer-b{batch}-{run}.db")
    start = time.perf_counter()
    for offset in range(0, len(events), batch):
        recorder.insert_events(events[offset:offset + batch])
    elapsed = time.perf_counter() - start
    datastore.close()
    return len(events) / elapsed, path


def measure_read(path):
    datastore = SQLiteDatastore(db_name=path)
    recorder = SQLiteApplicationRecorder(datastore)
    start = time.perf_counter()
    count = 0
    position = 1
    while True:
        page = recorder.select_notifications(start=position, limit=1000)
        if not page:
            break
        for notification in page:
            len(notification.state)
        count += len(page)
        position = page[-1].id + 1
    elapsed = time.perf_counter() - start
    datastore.close()
    return count / elapsed


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("ndjson")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--events", type=int, default=0, help="use only the first N events")
    parser.add_argument("--b1-events", type=int, default=2000, help="events for the 1-per-commit run")
    parser.add_argument("--b10-events", type=int, default=20000, help="events for the 10-per-commit run")
    args = parser.parse_args()

    events = load_events(args.ndjson, args.events)
    results = {"peer_events": len(events)}
    with tempfile.TemporaryDirectory(prefix="peer-") as directory:
        for batch, count in ((1000, len(events)), (100, len(events)), (10, args.b10_events), (1, args.b1_events)):
            subset = events[:count]
            rates = []
            reads = []
            for run in range(args.runs):
                rate, path = measure_append(subset, batch, directory, run)
                rates.append(rate)
                if batch == 1000:
                    reads.append(measure_read(path))
                    checkpoint = sqlite3.connect(path)  # sizes compared at rest, WAL checkpointed
                    checkpoint.execute("PRAGMA wal_checkpoint(TRUNCATE)")
                    checkpoint.close()
                    size = sum(os.path.getsize(path + suffix) for suffix in ("", "-wal")
                               if os.path.exists(path + suffix))
                    results["peer_bytes_per_event"] = round(size / len(subset), 1)
                os.remove(path)
            results[f"peer_append_b{batch}_eps"] = round(statistics.median(rates))
            if reads:
                results["peer_read_all_eps"] = round(statistics.median(reads))
    json.dump(results, sys.stdout)
    print()


if __name__ == "__main__":
    main()
