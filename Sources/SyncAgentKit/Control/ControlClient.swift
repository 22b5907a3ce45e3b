import FoundationEssentials
import Glibc

/// A command's end of the control socket: sends one request and reads the answer.
public enum ControlClient {
    /// Sends `request` to the agent listening at `path` and returns its answer, waiting at most
    /// `timeout` for it.
    public static func send(_ request: ControlRequest, to path: String, timeout: Duration = .seconds(5)) throws(ControlError) -> ControlResponse {
        guard let address = UnixSocketAddress(path: path) else {
            throw ControlError(.failed, "the control socket path \(path) is too long for a Unix socket")
        }
        let connection = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard connection >= 0 else { throw ControlError(.failed, "cannot create a socket: \(systemReason())") }
        defer { close(connection) }
        var limit = timeval(tv_sec: Int(timeout.components.seconds), tv_usec: Int(timeout.components.attoseconds / 1_000_000_000_000))
        setsockopt(connection, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(connection, SOL_SOCKET, SO_SNDTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        guard address.withSocketAddress({ connect(connection, $0, $1) }) == 0 else {
            if errno == ENOENT || errno == ECONNREFUSED { throw ControlError(.agentNotRunning, "the agent is not running") }
            throw ControlError(.failed, "cannot reach the agent at \(path): \(systemReason())")
        }
        guard var line = try? ControlProtocol.encoder().encode(request) else {
            throw ControlError(.failed, "cannot encode the request")
        }
        line.append(UInt8(ascii: "\n"))
        let sent = line.withUnsafeBytes { Glibc.send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        guard sent == line.count else { throw ControlError(.failed, "cannot send the request to the agent: \(systemReason())") }
        var answer = Data()
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { recv(connection, $0.baseAddress, $0.count, 0) }
            if count < 0 && errno == EINTR { continue }
            if count < 0 {
                throw ControlError(.failed, errno == EAGAIN ? "the agent did not answer within \(timeout)" : "cannot read the agent's answer: \(systemReason())")
            }
            if count == 0 { break }
            answer.append(contentsOf: chunk[..<count])
        }
        guard let response = try? ControlProtocol.decoder().decode(ControlResponse.self, from: answer) else {
            throw ControlError(.failed, "the agent's answer cannot be read")
        }
        return response
    }
}

/// Why a command could not talk to the agent.
public typealias ControlError = DomainError<ControlDomain>

/// Where a ``ControlError`` comes from (see ``DomainError``).
public enum ControlDomain {}

extension ErrorCode where Domain == ControlError {
    /// Nothing listens on the socket.
    public static let agentNotRunning = Self("agent-not-running")
    public static let failed = Self("failed")
    /// The agent's end of the socket cannot be made.
    public static let cannotListen = Self("cannot-listen")
}
