/// Why a manifest could not be loaded: every problem found in it, in the order they appear.
///
/// ``ManifestLoader`` does not stop at the first problem, so a person can fix them all in one
/// go. Only a YAML syntax error ends reading early: after it nothing can be trusted.
public struct InvalidManifest: Error, Sendable, Equatable, CustomStringConvertible {
    /// The problems, sorted by line and column. Never empty.
    public var errors: [ManifestError]

    /// Wraps `errors`, which must not be empty.
    public init(errors: [ManifestError]) {
        precondition(!errors.isEmpty, "an invalid manifest has at least one error")
        self.errors = errors
    }

    /// One GCC-style line per problem.
    public var description: String {
        errors.map(\.description).joined(separator: "\n")
    }
}
