import EventStore

extension Bench {
    /// `--read JOURNAL`: read all over an existing journal in turn with raw SQLite's read of a
    /// table of the same events (stream name, version and `data`, uncompressed, no index, no
    /// hash), so that the ratio comes from one run of one machine state.
    func measureReadOnly(_ path: String) throws {
        var configuration = SQLiteEventStore.Configuration()
        configuration.readOnly = true
        configuration.createIfMissing = false
        let store = try SQLiteEventStore(path: path, configuration: configuration)
        let directory = try workDirectory()
        defer { if !options.keepFiles && options.workDirectory == nil { System.removeTree(directory) } }
        let raw = directory + "/raw-read.db"
        try copyToRawTable(store, path: raw)
        RawSQLite.checkpoint(path: raw)
        var lent: [Timing] = []
        var recorded: [Timing] = []
        var scans: [Timing] = []
        var raws: [Timing] = []
        for run in 1...options.runs {
            lent.append(try JournalBench.readAll(store))
            recorded.append(try JournalBench.readAllRecorded(store))
            scans.append(try JournalBench.scanAll(store))
            raws.append(try RawBench.readAll(path: raw))
            log(
                "run \(run): read all lent \(Int(lent[run - 1].eps))/s, as RecordedEvent "
                    + "\(Int(recorded[run - 1].eps))/s, scan \(Int(scans[run - 1].eps))/s, raw "
                    + "\(Int(raws[run - 1].eps))/s; per CPU-s \(Int(lent[run - 1].cpuEPS)), "
                    + "\(Int(recorded[run - 1].cpuEPS)), \(Int(scans[run - 1].cpuEPS)), \(Int(raws[run - 1].cpuEPS)) "
                    + "(load \(Metrics.decimal(System.loadAverage().first ?? 0, places: 1)))")
        }
        metrics["read_all_eps"] = Statistics.median(lent.map(\.eps))
        metrics["read_all_cpu_eps"] = Statistics.median(lent.map(\.cpuEPS))
        metrics["read_all_recorded_eps"] = Statistics.median(recorded.map(\.eps))
        metrics["read_all_recorded_cpu_eps"] = Statistics.median(recorded.map(\.cpuEPS))
        metrics["scan_all_eps"] = Statistics.median(scans.map(\.eps))
        metrics["scan_all_cpu_eps"] = Statistics.median(scans.map(\.cpuEPS))
        metrics["raw_read_all_eps"] = Statistics.median(raws.map(\.eps))
        metrics["raw_read_all_cpu_eps"] = Statistics.median(raws.map(\.cpuEPS))
        let rawEPS = Statistics.median(raws.map(\.eps))
        let rawCPU = Statistics.median(raws.map(\.cpuEPS))
        for key in ["read_all", "read_all_recorded", "scan_all"] {
            guard let ours = metrics["\(key)_eps"], let cpu = metrics["\(key)_cpu_eps"], rawEPS > 0, rawCPU > 0
            else { continue }
            metrics["\(key)_ratio_raw"] = ours / rawEPS
            print(
                "\(key): \(Int(ours))/s, \(Metrics.decimal(ours / rawEPS, places: 3))× raw \(Int(rawEPS))/s; per "
                    + "CPU-s \(Int(cpu)), \(Metrics.decimal(cpu / rawCPU, places: 3))× raw \(Int(rawCPU))")
        }
        try writeJSONIfAsked()
    }

    /// The journal's events as raw rows (stream name, version, `data`), in commits of 1000.
    private func copyToRawTable(_ store: SQLiteEventStore, path: String) throws {
        System.removeDatabase(path)
        let db = try RawSQLite(path: path)
        var rows: [RawRow] = []
        var position: Int64 = 1
        while true {
            rows.removeAll(keepingCapacity: true)
            try store.readAll(from: position, limit: 1_000) { event in
                rows.append(
                    RawRow(
                        stream: String(decoding: event.stream, as: UTF8.self), version: event.version,
                        payload: Array(event.data)))
                return true
            }
            guard !rows.isEmpty else { break }
            try db.append(rows[...])
            position += Int64(rows.count)
            if rows.count < 1_000 { break }
        }
    }
}
