import EventStore
import Foundation
import JournalCore

/// A journal with signed checkpoints, for the mirror and restore tests.
enum MirrorFixture {
    static let signer: NoteSigner = {
        // A fixed seed: the same key in every run.
        try! NoteSigner(
            name: "payments.example/journal",
            privateKey: try! Ed25519.PrivateKey(seed: [UInt8](repeating: 9, count: 32)))
    }()

    static var verifier: NoteVerifier { signer.verifier }

    /// Appends events `range` (three events per stream, streams in turn).
    static func fill(_ store: some EventStore, _ range: Range<Int>) throws {
        for start in stride(from: range.lowerBound, to: range.upperBound, by: 50) {
            let end = min(start + 50, range.upperBound)
            var appends: [StreamAppend] = []
            for n in start..<end {
                appends.append(StreamAppend(stream: Fixture.stream(n / 3), events: [Fixture.event(n)]))
            }
            try store.append(appends)
        }
    }

    /// Signs and keeps a checkpoint of the journal's head; returns it.
    @discardableResult
    static func sign(_ store: some EventStore) throws -> SignedCheckpoint {
        let head = try store.treeHead()
        let signed = try SignedCheckpoint(
            signing: Checkpoint(origin: signer.name, size: head.size, root: head.root), with: signer)
        try store.keepCheckpoint(note: signed.noteText, size: head.size, root: head.root)
        return signed
    }

    /// The journal's export lines, in position order.
    static func exportLines(_ store: some EventStore) throws -> [[UInt8]] {
        var lines: [[UInt8]] = []
        var next: Int64 = 1
        while true {
            let page = try store.readAll(from: next, limit: 500)
            guard let last = page.last else { return lines }
            for event in page {
                var line: [UInt8] = []
                event.exportLine(into: &line)
                lines.append(line)
            }
            next = last.position + 1
        }
    }

    /// Every file under `folder`, by path relative to it.
    static func files(under folder: String) -> [String: Data] {
        var files: [String: Data] = [:]
        let enumerator = FileManager.default.enumerator(atPath: folder)
        while let relative = enumerator?.nextObject() as? String {
            var isFolder: ObjCBool = false
            let path = folder + "/" + relative
            if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), !isFolder.boolValue {
                files[relative] = FileManager.default.contents(atPath: path)
            }
        }
        return files
    }

    static func mode(_ path: String) throws -> Int {
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        return (attributes[.posixPermissions] as? Int ?? 0) & 0o777
    }

    static func inode(_ path: String) throws -> Int {
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        return attributes[.systemFileNumber] as? Int ?? -1
    }
}
