/// The rule for key names of C2SP signed-note and Go's `sumdb/note` (`isValidName`): non-empty,
/// valid UTF-8, no `+`, and no Unicode space (White_Space: tab, line feed, U+0085, U+00A0,
/// U+2028, …).
package enum NoteKeyName {
    /// Why `name` is not a valid key name, or nil when it is.
    package static func problem(_ name: some StringProtocol) -> String? {
        if name.isEmpty { return "the key name is empty" }
        if name.contains("+") { return "the key name contains '+'" }
        if name.unicodeScalars.contains(where: { $0.properties.isWhitespace }) {
            return "the key name contains a space"
        }
        return nil
    }

    /// Bytes as a valid key name, or why they are not one.
    package static func validated(_ bytes: some Collection<UInt8>) -> Result<String, NoteKeyError> {
        guard let name = String(validating: bytes, as: UTF8.self) else {
            return .failure(.invalidName("the key name is not valid UTF-8"))
        }
        if let problem = problem(name) { return .failure(.invalidName(problem)) }
        return .success(name)
    }
}
