/// Why the saved state could not be opened, read or written, in words a person can act on.
public struct StateStoreError: Error, Sendable, Equatable, CustomStringConvertible {
    public typealias Code = ErrorCode<StateStoreError>

    /// What kind of failure it was.
    public var code: Code
    /// The file or folder concerned.
    public var path: String
    /// Whole sentences that name the file and say what to do.
    public var message: String

    /// Describes the failure for people.
    public var description: String { message }

    /// An error about `path`.
    public init(_ code: Code, path: String, message: String) {
        self.code = code
        self.path = path
        self.message = message
    }
}

extension StateStoreError {
    /// What every "the file is unusable" message ends with.
    static let startOverAdvice = "Move it aside or run `syncagent reset` to start over."

    /// The error for an SQLite failure while doing `action` on the database at `path`, such
    /// as "save the state of /home/a/b.pdf".
    init(_ error: SQLiteError, while action: String, databasePath path: String) {
        switch error.code.primary {
        case .notADatabase, .corrupt:
            self.init(
                .damaged, path: path,
                message: "\(path) is damaged or is not a syncagent state database (\(error.message)). "
                    + Self.startOverAdvice
            )
        default:
            self.init(.storage, path: path, message: "Could not \(action) in \(path): \(error.message).")
        }
    }
}

extension ErrorCode where Domain == StateStoreError {
    /// The state folder could not be created.
    public static let cannotCreateDirectory = Self("cannot-create-directory")
    /// The file is not a database at all, or a damaged one.
    public static let damaged = Self("damaged")
    /// The file is a database, but not one syncagent made.
    public static let notOurs = Self("not-ours")
    /// A newer syncagent wrote the file in a layout this one does not know.
    public static let newerVersion = Self("newer-version")
    /// Reading or writing failed: disk full, I/O error, no permission, locked too long.
    public static let storage = Self("storage")
    /// SQLite is not installed (or lacks a function syncagent calls).
    public static let noSQLite = Self("no-sqlite")
}
