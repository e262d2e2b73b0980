import JournalCore

/// Receives the fields of an event's `data` object in catalog order, absent optional fields
/// skipped, exactly as a command builds the object: each payload writes its fields once
/// (`writeFields(to:)`), into ``DataBuilder`` for its `data`, or into a writer that produces
/// JSON text straight away (the simulator), without building the object first.
///
/// The keys given to the typed calls are the catalog's field names (ASCII letters and digits,
/// nothing to escape in JSON); ``set(_:value:)`` takes any key and value.
public protocol EventDataWriter {
    mutating func set(_ key: String, string value: String)
    mutating func set(_ key: String, int value: Int64)
    mutating func set(_ key: String, bool value: Bool)
    /// An array of strings.
    mutating func set(_ key: String, strings value: [String])
    /// Any JSON value under any key (a payload's objects, the fields of a ``NoFields``).
    mutating func set(_ key: String, value: JSONValue)
}

extension EventDataWriter {
    @inlinable public mutating func set(_ key: String, _ value: String) { set(key, string: value) }
    @inlinable public mutating func set(_ key: String, _ value: String?) { if let value { set(key, string: value) } }
    @inlinable public mutating func set(_ key: String, _ value: Bool) { set(key, bool: value) }
    @inlinable public mutating func set(_ key: String, _ value: Bool?) { if let value { set(key, bool: value) } }
    @inlinable public mutating func set(_ key: String, _ value: Int64) { set(key, int: value) }
    @inlinable public mutating func set(_ key: String, _ value: Int64?) { if let value { set(key, int: value) } }
    @inlinable public mutating func set(_ key: String, _ value: JSONValue) { set(key, value: value) }
    public mutating func set<E: RawRepresentable>(_ key: String, _ value: E) where E.RawValue == String {
        set(key, string: value.rawValue)
    }
    public mutating func set<E: RawRepresentable>(_ key: String, _ value: E?) where E.RawValue == String {
        if let value { set(key, string: value.rawValue) }
    }
}
