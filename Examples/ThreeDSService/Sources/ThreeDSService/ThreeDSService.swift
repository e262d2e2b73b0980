import Foundation
import JournalKit

// A small 3DS service embedding the journal: it records the steps of one challenged 3DS
// transaction as they happen, reads the transaction's state back, signs a checkpoint, proves
// the last event and checks the stream's bundle as an auditor would. Any failure exits non-zero
// with the status `journal` gives the same failure. Usage: ThreeDSService [JOURNAL]
// (a SQLite path or a postgres:// URL; default: a new journal in a temporary folder).

@main
enum ThreeDSService {
    // The transaction: one stream, its events' ids and times (a real service takes them from the
    // SDK's messages).
    static let stream = "3ds-6f1c1f43-4d5e-4a41-9a41-0b9e2f3c7a7b"
    static let start: Int64 = 1_796_292_000_000 // 2026-12-03T10:40:00.000Z
    static func id(_ n: Int) -> String { "e3d50000-0000-4000-8000-" + String(format: "%012d", n) }
    static func at(_ seconds: Int64) -> Timestamp { Timestamp(millisecondsSinceEpoch: start + seconds * 1_000) }

    /// The steps after the first, as the SDK reports them: event type and `data`.
    static let steps: [(type: String, data: String)] = [
        (
            "AuthRequestParametersCreated",
            #"{"sdkReferenceNumber":"3DS_LOA_SDK_NETC_020200_00001","deviceDataBytes":2048}"#
        ),
        ("AuthResponseReceived", #"{"threeDSServerTransID":"\#(id(90))","acsTransID":"acs-1","transStatus":"C"}"#),
        ("ChallengeStarted", #"{"timeoutSeconds":600,"acsReferenceNumber":"ACS-REF-7"}"#),
        ("ChallengeRequestSent", #"{"sdkCounterStoA":"000","action":"initial"}"#),
        ("ChallengeResponseReceived", #"{"acsCounterAtoS":"000","challengeCompletionInd":"N","acsUiType":"01"}"#),
        ("ChallengeRequestSent", #"{"sdkCounterStoA":"001","action":"submitText","entryLength":6}"#),
        ("ChallengeResponseReceived", #"{"acsCounterAtoS":"001","challengeCompletionInd":"Y","transStatus":"Y"}"#),
        ("ChallengeCompleted", #"{"transStatus":"Y"}"#)
    ]

    /// Ends the run: `error:` and `hint:` lines on stderr, and the journal's exit status.
    static func fail(_ error: JournalError) -> Never {
        for message in error.messages { FileHandle.standardError.write(Data("error: \(message)\n".utf8)) }
        for hint in error.hints { FileHandle.standardError.write(Data("hint: \(hint)\n".utf8)) }
        exit(error.exitCode)
    }

    static func fail(_ message: String) -> Never {
        FileHandle.standardError.write(Data("error: \(message)\n".utf8))
        exit(1)
    }

    static func main() {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "threeds-service-\(UUID().uuidString)")
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            fail("cannot create \(folder.path): \(error)")
        }
        defer { try? FileManager.default.removeItem(at: folder) }
        let location = CommandLine.arguments.dropFirst().first ?? folder.appendingPathComponent("journal.db").path
        do {
            let journal = try Journal(opening: location)
            print("journal: \(journal.displayLocation)")

            // The first step as a typed event of the catalog; the stream must not exist yet.
            var meta = JSONObject()
            meta["platform"] = .string("iOS")
            meta["sdkVersion"] = .string("2.4.1")
            let created = Journal.NewEvent(
                id: id(1), stream: stream, occurredAt: at(0),
                event: .threeDS(.transactionCreated(.init(directoryServerID: "A000000003", messageVersion: .v2_2_0))),
                meta: meta)
            var last = try journal.append([created], expectedVersion: (stream, .noStream))
            print("appended TransactionCreated at position \(last.lastPosition ?? 0)")

            // Each later step as the NDJSON line the SDK sends, appended when it happens, at the
            // version this service last saw (another writer in between is a conflict, exit 5).
            for (index, step) in steps.enumerated() {
                let line =
                    #"{"id":"\#(id(index + 2))","stream":"\#(stream)","type":"\#(step.type)","#
                    + #""occurredAt":"\#(at(Int64(index + 1) * 2))","data":\#(step.data)}"#
                last = try journal.append(ndjson: line, expectedVersion: (stream, .exact(Int64(index))))
                print("appended \(step.type) at position \(last.lastPosition ?? 0)")
            }

            // A step that breaks the 3DS rules is refused with the reason `journal import` gives, and
            // nothing is written.
            let late =
                #"{"id":"\#(id(99))","stream":"\#(stream)","type":"ChallengeTimedOut","#
                + #""occurredAt":"\#(at(700))","data":{}}"#
            let refused: JournalError?
            do {
                try journal.append(ndjson: late)
                refused = nil
            } catch {
                refused = error
            }
            guard let refused, refused.status == .inputRejected else {
                fail("a ChallengeTimedOut after ChallengeCompleted was not refused as a rule violation")
            }
            print("refused as expected: \(refused.rejections.map(\.message).joined(separator: "; "))")

            // The transaction's state, rebuilt from the log.
            let state = try journal.state(of: stream)
            let status = state.state["status"]?.stringValue ?? "?"
            let outcome = state.state["outcome"]?.stringValue ?? "?"
            print("state at version \(state.version): \(status), \(outcome)")
            guard status == "ended", state.state["terminal"]?.boolValue == true else {
                fail("unexpected state \(state.json)")
            }

            // Evidence: sign the head with a key of this service (mode 0600), prove the last event,
            // bundle the stream, and check the bundle with the verifier key alone.
            let signer = try NoteSigner.generate(name: "threeds.example/journal")
            let keyFile = folder.appendingPathComponent("signing.key").path
            guard
                FileManager.default.createFile(
                    atPath: keyFile, contents: Data(signer.privateKeyText.utf8), attributes: [.posixPermissions: 0o600])
            else { fail("cannot write \(keyFile)") }
            let checkpoint = try journal.checkpoint(keyFile: keyFile)
            print("checkpoint signed: size \(checkpoint.size)")
            let position = last.lastPosition ?? 0
            let proof = try journal.prove(position: position)
            try proof.verify(with: [signer.verifier])
            print("proved position \(position) in the tree of \(proof.checkpoint.checkpoint.size)")
            let bundle = try journal.bundle(of: stream)
            let verified = try Journal.checkBundle(Array(bundle.jsonText.utf8), verifierKeys: signer.verifier.keyText)
            print("bundle checked: \(verified.stream), \(verified.events.count) events")
            guard verified.events.count == steps.count + 1 else {
                fail("the bundle holds \(verified.events.count) events")
            }
            print("ok")
        } catch let error as JournalError {
            fail(error)
        } catch {
            fail("\(error)")
        }
    }
}
