/// Why a written value cannot be read, for the validator to report at the value's place.
struct ValueProblem: Error, Sendable, Equatable {
    /// A sentence for a person, lowercase start, no final period.
    var message: String

    init(_ message: String) {
        self.message = message
    }
}
