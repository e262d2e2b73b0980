import EventStore
import JournalCore

/// The *as of* lines of the report's and the dashboard's header: the log's head and its time,
/// the latest kept checkpoint and its signer, what was checked to state them, and whether the
/// events are marked simulated. Each `<dd>` has an id and data attributes for programs (and the
/// dashboard's script, which checks the checkpoint's signature and fills `checkpoint-signature`).
package enum AsOfLines {
    /// `<dt>`/`<dd>` pairs for the header's `<dl class="scope">`.
    static func lines(_ asOf: JournalAsOf) -> String {
        var out = "<dt>as of</dt><dd id=\"as-of\"" + HTML.attribute("data-head", String(asOf.headPosition))
        if let recorded = asOf.headRecordedAt {
            out +=
                HTML.attribute("data-recorded-at", recorded.description) + ">head position \(asOf.headPosition), "
                + "recorded \(HTML.escape(recorded.description))</dd>\n"
        } else {
            out += ">head position 0: the journal is empty</dd>\n"
        }
        out += "<dt>checkpoint</dt><dd id=\"checkpoint\""
        if let checkpoint = asOf.checkpoint {
            let ids = checkpoint.originKeyIDs.joined(separator: ", ")
            let keys = ids.isEmpty ? "" : " (key \(ids))"
            let after = asOf.headPosition - checkpoint.size
            out +=
                HTML.attribute("data-size", String(checkpoint.size))
                + HTML.attribute("data-origin", checkpoint.origin) + HTML.attribute("data-root", checkpoint.root)
                + ">\(checkpoint.size) events, root <code>\(HTML.escape(checkpoint.root))</code>, signed by "
                + "\(HTML.escape(checkpoint.origin + keys)), kept \(HTML.escape(checkpoint.signedAt.description))"
                + (after > 0 ? "; the \(Self.counted(after, "event")) after it are not covered by it" : "")
                + ". <span id=\"checkpoint-signature\" data-signature=\"unchecked\">Signature not checked by this "
                + "page: the journal holds no verifier key (journal verify --checkpoint FILE --key VKEY "
                + "checks it).</span></dd>\n"
            // The place of the witnesses' cosignatures (spec §11): signature lines by other
            // names than the origin, counted here, neither named nor checked yet.
            if checkpoint.otherSignatures > 0 {
                out +=
                    "<dt>cosignatures</dt><dd id=\"cosignatures\""
                    + HTML.attribute("data-count", String(checkpoint.otherSignatures))
                    + ">\(Self.counted(Int64(checkpoint.otherSignatures), "signature line")) by other names "
                    + "(witnesses): not checked by this page</dd>\n"
            }
        } else {
            out += ">none kept: sign one with journal checkpoint --key FILE</dd>\n"
        }
        out +=
            "<dt>integrity</dt><dd id=\"integrity\" data-integrity=\"checked\">checked for this page: the "
            + "head event is in the log and its chain link holds"
            + (asOf.checkpoint == nil ? "" : "; the log still has the tree of the latest checkpoint (its root)")
            + ". Not checked here: every other event's link (journal verify checks them all).</dd>\n"
        out +=
            "<dt>simulated</dt><dd id=\"simulated\"" + HTML.attribute("data-simulated", simulatedValue(asOf))
            + ">\(HTML.escape(simulatedText(asOf)))</dd>\n"
        return out
    }

    /// A banner under the header when the events are marked simulated, empty otherwise.
    static func banner(_ asOf: JournalAsOf) -> String {
        let text: String
        switch (asOf.firstSimulated, asOf.headSimulated) {
        case (true, true): text = "these numbers describe simulated traffic, not real transactions"
        case (true, false), (false, true): text = "these numbers mix simulated and other events"
        case (false, false): return ""
        }
        return "<p class=\"simulated-banner\" role=\"note\"><strong>Simulated data:</strong> \(text) "
            + "(journal simulate marks every event it writes with meta.simulated).</p>\n"
    }

    /// `all`, `first`, `head` or `none`: which ends of the log are marked.
    static func simulatedValue(_ asOf: JournalAsOf) -> String {
        switch (asOf.firstSimulated, asOf.headSimulated) {
        case (true, true): return "all"
        case (true, false): return "first"
        case (false, true): return "head"
        case (false, false): return "none"
        }
    }

    static func simulatedText(_ asOf: JournalAsOf) -> String {
        let head = asOf.headPosition
        switch (asOf.firstSimulated, asOf.headSimulated) {
        case (true, true):
            return head == 1
                ? "yes: the one event is marked simulated (meta.simulated)"
                : "yes: the first and the last event (positions 1 and \(head)) are marked simulated "
                    + "(meta.simulated); the events between were not read"
        case (true, false):
            return "the log starts with simulated events (position 1 is marked meta.simulated) and its last "
                + "event (position \(head)) is not: these numbers mix simulated and other events"
        case (false, true):
            return "the last event (position \(head)) is marked simulated (meta.simulated) and the first is not: "
                + "these numbers may mix simulated and other events"
        case (false, false):
            return head == 0
                ? "no events" : "neither the first nor the last event (positions 1 and \(head)) is marked simulated"
        }
    }

    static func counted(_ count: Int64, _ noun: String) -> String { count == 1 ? "1 \(noun)" : "\(count) \(noun)s" }
}
