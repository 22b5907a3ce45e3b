/// One value SQLite stores: what a statement parameter takes and what a result column holds.
///
/// - SeeAlso: https://www.sqlite.org/datatype3.html
enum SQLiteValue: Sendable, Equatable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob([UInt8])

    /// A text value, or `.null` for `nil`.
    init(_ value: String?) {
        self = value.map { .text($0) } ?? .null
    }

    /// An integer value, or `.null` for `nil`.
    init(_ value: Int64?) {
        self = value.map { .integer($0) } ?? .null
    }

    /// An integer value, or `.null` for `nil`.
    init(_ value: Int?) {
        self = value.map { .integer(Int64($0)) } ?? .null
    }

    /// A real value, or `.null` for `nil`.
    init(_ value: Double?) {
        self = value.map { .real($0) } ?? .null
    }

    /// A boolean as SQLite keeps it: 1 or 0.
    init(_ value: Bool) {
        self = .integer(value ? 1 : 0)
    }
}
