/// Why a witness did not cosign a checkpoint, with the HTTP status of C2SP tlog-witness.
public enum WitnessRefusal: Error, Sendable, Equatable, CustomStringConvertible {
    /// 400: the body is not `old <M>`, proof lines, an empty line and a signed checkpoint.
    case malformed(String)
    /// 400: the old size is larger than the checkpoint's size.
    case oldSizeTooLarge(old: Int64, size: Int64)
    /// 403: no signature of a key the witness knows for the origin verifies.
    case notSigned(origin: String, reason: String)
    /// 404: the witness witnesses no log of this origin.
    case unknownOrigin(String)
    /// 409: the old size is not the size the witness last cosigned for the origin.
    case staleOldSize(old: Int64, cosigned: Int64)
    /// 422: the checkpoint does not extend the one the witness last cosigned.
    case notConsistent(String)
    /// 500: the witness's state could not be read or written.
    case stateFailure(String)

    /// The HTTP status of the answer.
    public var status: Int {
        switch self {
        case .malformed, .oldSizeTooLarge: 400
        case .notSigned: 403
        case .unknownOrigin: 404
        case .staleOldSize: 409
        case .notConsistent: 422
        case .stateFailure: 500
        }
    }

    public var description: String {
        switch self {
        case let .malformed(reason): "malformed add-checkpoint request: \(reason)"
        case let .oldSizeTooLarge(old, size): "the old size \(old) is larger than the checkpoint's size \(size)"
        case let .notSigned(origin, reason): "no known key of \(origin) signed the checkpoint: \(reason)"
        case let .unknownOrigin(origin): "this witness does not witness the log \(origin)"
        case let .staleOldSize(old, cosigned):
            "the old size \(old) is not the size this witness last cosigned (\(cosigned))"
        case let .notConsistent(reason): "the checkpoint does not extend the one this witness cosigned: \(reason)"
        case let .stateFailure(reason): "the witness's state failed: \(reason)"
        }
    }
}
