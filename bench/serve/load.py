#!/usr/bin/env python3
"""Load generator for `journal serve` (docs/serve.md): keep-alive connections appending events.

Starts `journal serve` on a fresh journal in a temporary folder, on a free loopback port, and
runs two workloads against it:

  single  CLIENTS concurrent clients, each appending one event per request (a new 3DS
          transaction's TransactionCreated) for SECONDS seconds;
  batch   one client appending BATCHES requests of 1,000 events each (500 transactions x 2
          events), then `journal import` of the same events into another fresh journal, and
          into a journal that already holds one event (the path a live journal takes), for
          the ratios.

First, IDLE connections that send nothing: the server's resident memory with them. Prints
acknowledged events/s and p50/p99 request latency. Not a test: numbers depend on the
machine and what else runs on it. The clients are Python threads (one connection each), so on
a small machine the load generator itself takes a good part of the CPU.

    swift build -c release --product journal
    python3 bench/serve/load.py --journal .build/release/journal
"""

import argparse
import http.client
import socket
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
import uuid


def transaction_events(n, prefix):
    stream = "3ds-%08x-0000-4000-8000-%012x" % (prefix, n)
    created = ('{"id":"%s","stream":"%s","type":"TransactionCreated","occurredAt":"2026-12-03T10:40:00.000Z",'
               '"data":{"directoryServerID":"A000000003","messageVersion":"2.2.0"}}') % (uuid.uuid4(), stream)
    params = ('{"id":"%s","stream":"%s","type":"AuthRequestParametersCreated","occurredAt":"2026-12-03T10:40:00.500Z",'
              '"data":{"sdkReferenceNumber":"3DS_LOA_SDK_NETC_020200_00001","deviceDataBytes":2048}}') % (uuid.uuid4(), stream)
    return created, params


def start_server(journal, db):
    server = subprocess.Popen([journal, "serve", "--listen", "127.0.0.1:0", "--db", db, "--max-body", str(64 << 20)],
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    line = server.stdout.readline()
    if not line.startswith("listening on http://127.0.0.1:"):
        server.kill()
        sys.exit("journal serve did not start: %r" % line)
    return server, int(line.strip().rsplit(":", 1)[1])


def percentile(values, p):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * p))] if ordered else float("nan")


def single(port, clients, seconds):
    deadline = time.monotonic() + seconds
    latencies = [[] for _ in range(clients)]
    acknowledged = [0] * clients
    failures = [0] * clients

    def client(index):
        connection = http.client.HTTPConnection("127.0.0.1", port)
        n = 0
        while time.monotonic() < deadline:
            n += 1
            body = transaction_events(index * 10_000_000 + n, 0x51000000)[0] + "\n"
            started = time.monotonic()
            connection.request("POST", "/v1/events", body, {"Content-Type": "application/x-ndjson"})
            response = connection.getresponse()
            response.read()
            latencies[index].append(time.monotonic() - started)
            if response.status == 200:
                acknowledged[index] += 1
            else:
                failures[index] += 1
        connection.close()

    threads = [threading.Thread(target=client, args=(i,)) for i in range(clients)]
    started = time.monotonic()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    elapsed = time.monotonic() - started
    every = [value for values in latencies for value in values]
    return {"clients": clients, "seconds": round(elapsed, 2), "acknowledged": sum(acknowledged),
            "failures": sum(failures), "eventsPerSecond": round(sum(acknowledged) / elapsed),
            "p50ms": round(percentile(every, 0.50) * 1000, 2), "p99ms": round(percentile(every, 0.99) * 1000, 2)}


def resident_mb(pid):
    with open("/proc/%d/status" % pid) as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def cpu_seconds(pid):
    """User + system CPU time the process has used so far."""
    with open("/proc/%d/stat" % pid) as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def idle(pid, port, count):
    """Opens `count` connections that send nothing; the server's resident memory before and with them."""
    before = resident_mb(pid)
    sockets = []
    for _ in range(count):
        sockets.append(socket.create_connection(("127.0.0.1", port)))
    time.sleep(1.0)
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    connection.request("GET", "/healthz")
    healthy = connection.getresponse().status == 200
    connection.close()
    during = resident_mb(pid)
    for s in sockets:
        s.close()
    return {"connections": count, "rssBeforeMB": round(before, 1), "rssWithThemMB": round(during, 1),
            "costMB": round(during - before, 1), "stillAnswering": healthy}


def batch(journal, port, batches, folder):
    bodies = []
    for b in range(batches):
        lines = []
        for t in range(500):
            lines.extend(transaction_events(b * 1000 + t, 0xBA000000))
        bodies.append("\n".join(lines) + "\n")
    connection = http.client.HTTPConnection("127.0.0.1", port)
    latencies = []
    acknowledged = 0
    started = time.monotonic()
    for body in bodies:
        t0 = time.monotonic()
        connection.request("POST", "/v1/events", body, {"Content-Type": "application/x-ndjson"})
        response = connection.getresponse()
        answer = json.loads(response.read())
        latencies.append(time.monotonic() - t0)
        if response.status == 200:
            acknowledged += answer["appended"]
    served = time.monotonic() - started
    connection.close()

    path = os.path.join(folder, "batch.ndjson")
    with open(path, "w") as out:
        out.write("".join(bodies))
    db = os.path.join(folder, "import.db")
    t0 = time.monotonic()
    subprocess.run([journal, "import", path, "--db", db], check=True, stdout=subprocess.DEVNULL)
    imported = time.monotonic() - t0
    # The server appends to a live journal; `journal import` into a journal that already holds
    # an event takes the same path (a new or empty one may be loaded in one go instead).
    existing = os.path.join(folder, "existing.db")
    seed = os.path.join(folder, "seed.ndjson")
    with open(seed, "w") as out:
        out.write(transaction_events(0, 0x5EED0000)[0] + "\n")
    subprocess.run([journal, "import", seed, "--db", existing], check=True, stdout=subprocess.DEVNULL)
    t0 = time.monotonic()
    subprocess.run([journal, "import", path, "--db", existing], check=True, stdout=subprocess.DEVNULL)
    imported_existing = time.monotonic() - t0
    events = batches * 1000
    served_rate = acknowledged / served
    return {"requests": batches, "eventsPerRequest": 1000, "acknowledged": acknowledged,
            "serveEventsPerSecond": round(served_rate), "p50ms": round(percentile(latencies, 0.5) * 1000, 1),
            "p99ms": round(percentile(latencies, 0.99) * 1000, 1), "importEventsPerSecond": round(events / imported),
            "ratioToImport": round(served_rate / (events / imported), 2),
            "importExistingEventsPerSecond": round(events / imported_existing),
            "ratioToImportExisting": round(served_rate / (events / imported_existing), 2)}


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--journal", default=".build/release/journal")
    parser.add_argument("--clients", type=int, default=64)
    parser.add_argument("--seconds", type=float, default=10)
    parser.add_argument("--batches", type=int, default=100)
    parser.add_argument("--idle", type=int, default=1000)
    parser.add_argument("--workloads", default="idle,single,batch", help="comma-separated: idle, single, batch")
    arguments = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="journal-serve-bench-") as folder:
        server, port = start_server(arguments.journal, os.path.join(folder, "serve.db"))
        try:
            chosen = arguments.workloads.split(",")
            if "idle" in chosen:
                print(json.dumps({"idle": idle(server.pid, port, arguments.idle)}))
            for name, run in (("single", lambda: single(port, arguments.clients, arguments.seconds)),
                              ("batch", lambda: batch(arguments.journal, port, arguments.batches, folder))):
                if name not in chosen:
                    continue
                cpu = cpu_seconds(server.pid)
                result = run()
                # The server's CPU per acknowledged event: what the server costs, whatever the
                # load generator (which shares the machine) takes.
                result["serverCPUMicrosecondsPerEvent"] = round((cpu_seconds(server.pid) - cpu) * 1e6 / max(1, result["acknowledged"]), 1)
                print(json.dumps({name: result}))
        finally:
            server.terminate()
            server.wait()


if __name__ == "__main__":
    main()
