/// A counted event of a category read model, with what describes it at the time it happened:
/// ``ThreeDSFact`` and ``CardFact``, whose kinds say what `a`, `b` and `v` hold.
public struct StreamFact<K: RawRepresentable & Sendable & Equatable>: Sendable, Equatable where K.RawValue == Int64 {
    public typealias Kind = K

    public var occurredAt: Int64
    public var sid: Int64
    public var kind: Kind
    public var a: String
    public var b: String
    /// A measured value (a card activation's milliseconds since the decision); nil for the others.
    public var v: Int64?

    public init(occurredAt: Int64, sid: Int64, kind: Kind, a: String, b: String = "", v: Int64? = nil) {
        self.occurredAt = occurredAt
        self.sid = sid
        self.kind = kind
        self.a = a
        self.b = b
        self.v = v
    }
}
