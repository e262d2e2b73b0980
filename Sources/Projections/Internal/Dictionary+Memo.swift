extension Dictionary {
    /// The value stored under `key`, made by `make` and stored the first time it is asked for
    /// (one hash lookup when present; the hot loops of a flush ask once per row).
    mutating func memo(_ key: Key, _ make: () -> Value) -> Value {
        if let known = self[key] { return known }
        let value = make()
        self[key] = value
        return value
    }
}
