// A libFuzzer target (coverage-guided) for the envelope decoder and the strict JSON parser it
// stands on. Built with JournalCore's sources into one module by `make fuzz`:
//
//   swiftc -sanitize=fuzzer,address -parse-as-library -O \
//       Sources/JournalCore/*.swift tools/fuzz/EnvelopeFuzzer.swift -o .build/fuzz-envelope
//
// Properties checked on every input (a violation traps, which libFuzzer reports with the input):
// - parsing never traps, whatever the bytes;
// - what parses re-serializes (JSONWriter) to text that parses again to an equivalent value;
// - an envelope that decodes re-decodes, from its own re-serialized object, to an equal envelope.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzEnvelope(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    let bytes = start.map { Array(UnsafeRawBufferPointer(start: $0, count: count)) } ?? []
    let parser = JSONParser()
    guard let value = try? parser.parse(bytes) else { return 0 }
    let written = Array(JSONWriter.string(value).utf8)
    guard let again = try? parser.parse(written) else {
        fatalError("JSONWriter wrote text its parser refuses")
    }
    precondition(value.isEquivalent(to: again), "a JSON value changed through JSONWriter")
    guard let envelope = try? Envelope(line: bytes, parser: parser) else { return 0 }
    guard let reparsed = try? Envelope(line: written, parser: parser) else {
        fatalError("an envelope's own JSON no longer decodes")
    }
    precondition(
        reparsed.isSameContent(as: envelope) && reparsed.id == envelope.id, "an envelope changed through JSONWriter")
    return 0
}
