import FoundationEssentials

/// The conversation between `syncagent` commands and the running agent, over a Unix socket:
/// one request line of JSON, one response line of JSON, then the agent closes the connection.
///
/// Versioned: a request names the version it speaks, and an agent answers a version it does
/// not know with an error rather than a guess.
public enum ControlProtocol {
    /// The version this build speaks.
    public static let version = 1
    /// The longest request line the agent reads; a longer one is answered with an error.
    public static let maximumRequestLength = 64 * 1024

    /// JSON with dates in ISO 8601, keys sorted: the same bytes for the same content.
    public static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.sortedKeys]
        return encoder
    }

    public static func decoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }
}

/// What a command asks the agent.
public struct ControlRequest: Codable, Sendable, Equatable {
    public enum Command: String, Codable, Sendable {
        case status, pause, resume, stop, start, reset
    }

    public var version: Int
    public var command: Command
    /// The files, feeds or episodes ("Feed/Episode") to act on, by title or unambiguous
    /// prefix; empty: every file and feed.
    public var titles: [String]

    public init(_ command: Command, titles: [String] = [], version: Int = ControlProtocol.version) {
        self.version = version
        self.command = command
        self.titles = titles
    }
}

/// The agent's answer.
public struct ControlResponse: Codable, Sendable, Equatable {
    public var version: Int
    /// Whether the request was carried out.
    public var ok: Bool
    /// What was done ("paused 2 files: …"), or why not.
    public var message: String
    /// For `status`: every file of the manifest.
    public var files: [FileStatus]?

    public init(ok: Bool, message: String, files: [FileStatus]? = nil) {
        self.version = ControlProtocol.version
        self.ok = ok
        self.message = message
        self.files = files
    }

    public static func failure(_ message: String) -> ControlResponse {
        ControlResponse(ok: false, message: message)
    }
}
