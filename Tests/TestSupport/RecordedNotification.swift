/// One `Notify` call as the test notification server received it.
public struct RecordedNotification: Decodable, Sendable, Equatable {
    /// A hint's value; variants other than strings, integers and booleans arrive as their
    /// Python `repr`, in ``string(_:)``.
    public enum Hint: Decodable, Sendable, Equatable {
        case string(String)
        case integer(Int)
        case boolean(Bool)

        public init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let value = try? container.decode(Int.self) {
                self = .integer(value)
            } else if let value = try? container.decode(Bool.self) {
                self = .boolean(value)
            } else {
                self = .string(try container.decode(String.self))
            }
        }
    }

    /// The sending application's name, e.g. "syncagent".
    public var appName: String
    public var replacesID: UInt32
    public var appIcon: String
    public var summary: String
    public var body: String
    /// Action identifiers and labels, alternating, as the spec sends them.
    public var actions: [String]
    public var hints: [String: Hint]
    /// Milliseconds; -1 means the server's default.
    public var expireTimeout: Int

    public init(
        appName: String,
        replacesID: UInt32 = 0,
        appIcon: String = "",
        summary: String,
        body: String = "",
        actions: [String] = [],
        hints: [String: Hint] = [:],
        expireTimeout: Int = -1
    ) {
        self.appName = appName
        self.replacesID = replacesID
        self.appIcon = appIcon
        self.summary = summary
        self.body = body
        self.actions = actions
        self.hints = hints
        self.expireTimeout = expireTimeout
    }

    /// The `category` hint, e.g. "transfer.complete".
    public var category: String? {
        if case .string(let value)? = hints["category"] { value } else { nil }
    }

    /// The `urgency` hint: 0 low, 1 normal, 2 critical.
    public var urgency: Int? {
        if case .integer(let value)? = hints["urgency"] { value } else { nil }
    }

    /// The `desktop-entry` hint, e.g. "syncagent".
    public var desktopEntry: String? {
        if case .string(let value)? = hints["desktop-entry"] { value } else { nil }
    }

    private enum CodingKeys: String, CodingKey {
        case appName = "app_name", replacesID = "replaces_id", appIcon = "app_icon"
        case summary, body, actions, hints
        case expireTimeout = "expire_timeout"
    }
}
