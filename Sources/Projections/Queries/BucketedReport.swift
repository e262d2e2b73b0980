import JournalCore

/// A query answered once per time bucket (`--every`): `{"buckets": [{"start", "end", …the
/// query's keys…}, …]}`, in time order. A bucket's `start` and `end` are its aligned edges even
/// where the window cuts it; its report covers only the part inside the window.
public struct BucketedReport: QueryReport {
    public struct Bucket: Sendable {
        public var start: Timestamp
        public var end: Timestamp
        /// The events of the log whose occurredAt lies in the part of the bucket inside the window.
        public var events: Int64
        public var report: any QueryReport
    }

    public var every: BucketWidth
    public var buckets: [Bucket]

    public var json: JSONValue {
        .object(
            JSONObject([
                (
                    key: "buckets",
                    value: .array(
                        buckets.map { bucket in
                            var entries: [(key: String, value: JSONValue)] = [
                                (key: "start", value: .string(bucket.start.description)),
                                (key: "end", value: .string(bucket.end.description))
                            ]
                            if case let .object(object) = bucket.report.json { entries += object.entries }
                            return .object(JSONObject(entries))
                        })
                )
            ]))
    }
}
