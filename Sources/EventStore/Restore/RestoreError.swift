/// Why a restore kept nothing.
package struct RestoreError: Error, Sendable, Equatable, CustomStringConvertible {
    package enum Kind: Sendable, Equatable {
        /// The input is not the signed log it claims to be: a line that is not an export line, a
        /// gap in the positions, a hash that is not the chain's, a tree without the
        /// checkpoint's root (exit 4).
        case integrity
        /// The destination cannot be restored into (it exists), or the input cannot be read.
        case failure
    }

    package var kind: Kind
    package var message: String

    package init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    package var description: String { message }
}
