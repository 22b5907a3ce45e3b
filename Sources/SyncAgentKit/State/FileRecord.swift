import FoundationEssentials

/// What syncagent remembers about one file between runs.
///
/// Keyed by ``path``: the identity of a kept file is where it lives on disk.
///
/// A batch holds one for each of its files (10,000 in a re-check), so what most records leave
/// empty — a partial's version and length, a server's name, a retry time, a failure's message —
/// is kept apart, in one shared box that only records with any of them have: 112 bytes a
/// record instead of 200, and three strings fewer to retain at each copy.
public struct FileRecord: Sendable {
    /// The absolute path the file is kept at.
    public var path: String
    /// The URL it was last fetched from.
    public var url: String
    /// The server's validators for the version in place; sent back as a conditional GET.
    public var validators: Validators
    /// The size of the version in place, in bytes.
    public var size: Int64?
    /// Failed attempts in a row since the last success.
    public var failedAttempts: Int
    /// Whether the user paused or stopped the file: held files are not started until the user
    /// starts or resumes them.
    public var hold: Hold?
    /// ``lastResult`` but for its message.
    private var lastResultKind: LastResult.Kind?
    private var lastResultDate = Date(timeIntervalSinceReferenceDate: 0)
    /// The fields most records leave empty; `nil` when all of them are.
    private var rare: Rare?

    /// The validators of the hidden partial download, so a resume can send `If-Range`.
    /// `nil` when there is no partial, or when it cannot safely be continued.
    public var partial: Validators? {
        get { rare?.fields.partial }
        set { change(to: newValue, at: \.partial) }
    }

    /// How the last attempt ended.
    public var lastResult: LastResult? {
        get { lastResultKind.map { LastResult(kind: $0, message: rare?.fields.lastResultMessage, date: lastResultDate) } }
        set {
            lastResultKind = newValue?.kind
            lastResultDate = newValue?.date ?? Date(timeIntervalSinceReferenceDate: 0)
            change(to: newValue?.message, at: \.lastResultMessage)
        }
    }

    /// After a transient failure: the earliest moment to try again (backoff, or the
    /// server's `Retry-After`). `nil` when nothing is pending.
    public var nextAttempt: Date? {
        get { rare?.fields.nextAttempt }
        set { change(to: newValue, at: \.nextAttempt) }
    }

    /// For an entry named by its server: the file name the server gave (`Content-Disposition`)
    /// the first time it was put in place, in the same folder as ``path``. Kept for good: a
    /// later, different name from the server never renames the file.
    public var servedName: String? {
        get { rare?.fields.servedName }
        set { change(to: newValue, at: \.servedName) }
    }

    /// The whole length of the version ``partial`` belongs to, when the server said it.
    public var partialLength: Int64? {
        get { rare?.fields.partialLength }
        set { change(to: newValue, at: \.partialLength) }
    }

    public init(
        path: String,
        url: String,
        validators: Validators = Validators(),
        size: Int64? = nil,
        partial: Validators? = nil,
        failedAttempts: Int = 0,
        lastResult: LastResult? = nil,
        nextAttempt: Date? = nil,
        hold: Hold? = nil,
        servedName: String? = nil,
        partialLength: Int64? = nil
    ) {
        self.path = path
        self.url = url
        self.validators = validators
        self.size = size
        self.failedAttempts = failedAttempts
        self.hold = hold
        lastResultKind = lastResult?.kind
        lastResultDate = lastResult?.date ?? Date(timeIntervalSinceReferenceDate: 0)
        let fields = Rare.Fields(partial: partial, partialLength: partialLength, servedName: servedName,
                                 nextAttempt: nextAttempt, lastResultMessage: lastResult?.message)
        rare = fields.isEmpty ? nil : Rare(fields)
    }

    /// Where the file is on disk: beside ``path`` under its ``servedName`` when the server
    /// named it, else ``path`` itself.
    public var keptPath: String {
        guard let servedName else { return path }
        return splitPath(path).folder + "/" + servedName
    }

    /// Sets one of the rare fields: a new box (boxes are shared by copies, so never changed),
    /// or none when all are empty; nothing when it is empty and stays so.
    private mutating func change<Value>(to value: Value?, at field: WritableKeyPath<Rare.Fields, Value?>) {
        guard value != nil || rare != nil else { return }
        var fields = rare?.fields ?? Rare.Fields()
        fields[keyPath: field] = value
        rare = fields.isEmpty ? nil : Rare(fields)
    }

    /// The box of the fields most records leave empty.
    private final class Rare: Sendable {
        struct Fields: Equatable {
            var partial: Validators?
            var partialLength: Int64?
            var servedName: String?
            var nextAttempt: Date?
            var lastResultMessage: String?

            var isEmpty: Bool {
                partial == nil && partialLength == nil && servedName == nil && nextAttempt == nil && lastResultMessage == nil
            }
        }

        let fields: Fields

        init(_ fields: Fields) {
            self.fields = fields
        }
    }
}

extension FileRecord: Equatable {
    public static func == (a: FileRecord, b: FileRecord) -> Bool {
        a.differsOnlyInResult(from: b) && a.failedAttempts == b.failedAttempts && a.lastResult == b.lastResult
            && a.nextAttempt == b.nextAttempt
    }
}

extension FileRecord {
    /// Whether this record and `other` differ in their result at most — ``failedAttempts``,
    /// ``lastResult`` and ``nextAttempt``, the columns ``StateStore/updateResults(_:)`` writes:
    /// field by field, with no copy of either made and changed first (a re-check asks it of
    /// 10,000 records).
    func differsOnlyInResult(from other: FileRecord) -> Bool {
        guard path == other.path, url == other.url, validators == other.validators, size == other.size, hold == other.hold else {
            return false
        }
        if rare === other.rare { return true }
        let fields = rare?.fields ?? Rare.Fields(), others = other.rare?.fields ?? Rare.Fields()
        return fields.partial == others.partial && fields.partialLength == others.partialLength && fields.servedName == others.servedName
    }
}

extension FileRecord: CustomStringConvertible {
    /// Every field by name, as a memberwise value would print (test failures show it).
    public var description: String {
        "FileRecord(path: \(path), url: \(url), validators: \(validators), size: \(String(describing: size)), "
            + "partial: \(String(describing: partial)), failedAttempts: \(failedAttempts), lastResult: \(String(describing: lastResult)), "
            + "nextAttempt: \(String(describing: nextAttempt)), hold: \(String(describing: hold)), "
            + "servedName: \(String(describing: servedName)), partialLength: \(String(describing: partialLength)))"
    }
}

/// Why the user holds a file back.
public enum Hold: String, Sendable {
    /// Paused: the partial download is kept, and resuming continues it.
    case paused
    /// Stopped: the partial download was discarded; starting begins again from zero.
    case stopped
}

/// The end of one attempt, kept for `syncagent status`.
public struct LastResult: Sendable, Equatable {
    public enum Kind: String, Sendable {
        case downloaded, unchanged, failed
    }

    public var kind: Kind
    /// For a failure, why (a ``TransferFailure`` message); otherwise `nil`.
    public var message: String?
    public var date: Date

    public init(kind: Kind, message: String? = nil, date: Date) {
        self.kind = kind
        self.message = message
        self.date = date
    }
}
