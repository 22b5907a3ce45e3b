import FoundationEssentials
import Glibc

/// The agent's end of the control socket: accepts connections, reads one request line from
/// each, and writes back the agent's answer.
///
/// Lives on the agent's thread; its descriptors join the transfer loop's `curl_multi_poll`,
/// so a command wakes the agent like any other event. Only the agent's own user may talk to
/// it: the folder is 0700, the socket 0600, and each peer's uid is checked (`SO_PEERCRED`).
final class ControlServer {
    let path: String
    private let listener: Int32
    /// Connections whose request line is still arriving.
    private var pending: [Int32: Connection] = [:]

    /// A connection until its request line is complete. The agent answers only once the whole
    /// line is in (also when the answer is a refusal): closing a Unix socket with unread data
    /// resets it, and the client would lose the answer.
    private struct Connection {
        var line: [UInt8] = []
        /// Another user: whatever it asks, the answer is no.
        var stranger: Bool
        /// The line grew past the limit; the rest is read and dropped.
        var tooLong = false
    }

    /// Creates the folder (0700) and the socket (0600). A socket left by an agent that died is
    /// replaced: the caller holds the agent lock, so no live agent can be listening there.
    init(path: String) throws(ControlError) {
        self.path = path
        let folder = splitPath(path).folder
        do {
            try FileSystem.createFolders(folder)
        } catch {
            throw ControlError(.cannotListen, "cannot create \(folder): \(error.message)")
        }
        chmod(folder, 0o700)
        guard let address = UnixSocketAddress(path: path) else {
            throw ControlError(.cannotListen, "the control socket path \(path) is too long for a Unix socket")
        }
        unlink(path)
        listener = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        guard listener >= 0 else { throw ControlError(.cannotListen, "cannot create the control socket: \(systemReason())") }
        // Only its own user can reach the socket through its 0700 folder, and it is made 0600
        // before anything is accepted. Not through umask: the mask is the whole process's, and
        // a file another thread created meanwhile would get the socket's mode (seen as a state
        // folder made 0600 while a test's agent bound its socket).
        let bound = address.withSocketAddress { bind(listener, $0, $1) } == 0
        guard bound, chmod(path, 0o600) == 0, listen(listener, 16) == 0 else {
            // Closed by deinit, which runs when an init with every property set throws; closing
            // here as well could close a number another thread has just been given.
            throw ControlError(.cannotListen, "cannot listen on \(path): \(systemReason())")
        }
    }

    deinit {
        for connection in pending.keys { close(connection) }
        close(listener)
        unlink(path)
    }

    /// Every descriptor the loop must watch for this server.
    var descriptors: [Int32] { [listener] + pending.keys }

    /// Accepts new connections and answers every complete request among the readable
    /// descriptors, with `answer`.
    func serve(readable: Set<Int32>, answer: (ControlRequest) -> ControlResponse) {
        if readable.contains(listener) { acceptConnections() }
        for connection in Array(pending.keys) where readable.contains(connection) {
            read(from: connection, answer: answer)
        }
    }

    private func acceptConnections() {
        while true {
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else { return }
            _ = fcntl(connection, F_SETFD, FD_CLOEXEC)
            _ = fcntl(connection, F_SETFL, fcntl(connection, F_GETFL) | O_NONBLOCK)
            pending[connection] = Connection(stranger: Self.peerUser(of: connection) != getuid())
        }
    }

    private func read(from connection: Int32, answer: (ControlRequest) -> ControlResponse) {
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(connection, $0.baseAddress, $0.count) }
            if count < 0 && (errno == EAGAIN || errno == EINTR) { return }
            guard var state = pending[connection] else { return }
            // End of input, or the end of the line: the request is complete.
            let newline = count > 0 ? chunk[..<count].firstIndex(of: UInt8(ascii: "\n")) : nil
            if count > 0 && !state.tooLong {
                state.line.append(contentsOf: chunk[..<(newline ?? count)])
                state.tooLong = state.line.count > ControlProtocol.maximumRequestLength
            }
            guard count <= 0 || newline != nil else {
                pending[connection] = state
                continue
            }
            pending[connection] = nil
            if state.stranger {
                reply(.failure("permission denied: the agent answers only its own user"), to: connection)
            } else if state.tooLong {
                reply(.failure("the request is longer than \(ControlProtocol.maximumRequestLength) bytes"), to: connection)
            } else if state.line.isEmpty {
                close(connection)
            } else {
                respond(to: state.line, on: connection, answer: answer)
            }
            return
        }
    }

    private func respond(to line: [UInt8], on connection: Int32, answer: (ControlRequest) -> ControlResponse) {
        struct Envelope: Decodable { var version: Int }
        let decoder = ControlProtocol.decoder()
        guard let envelope = try? decoder.decode(Envelope.self, from: Data(line)) else {
            reply(.failure("the request is not a JSON object with a \"version\""), to: connection)
            return
        }
        guard envelope.version == ControlProtocol.version else {
            reply(.failure("protocol version \(envelope.version) is not supported; this agent speaks version \(ControlProtocol.version)"), to: connection)
            return
        }
        guard let request = try? decoder.decode(ControlRequest.self, from: Data(line)) else {
            reply(.failure("the request is not one this agent understands"), to: connection)
            return
        }
        reply(answer(request), to: connection)
    }

    /// Writes the answer and closes the connection. The socket turns blocking with a send
    /// timeout, so a client that never reads cannot hold the agent for long.
    private func reply(_ response: ControlResponse, to connection: Int32) {
        defer { close(connection) }
        guard var bytes = try? ControlProtocol.encoder().encode(response) else { return }
        bytes.append(UInt8(ascii: "\n"))
        let flags = fcntl(connection, F_GETFL)
        _ = fcntl(connection, F_SETFL, flags & ~O_NONBLOCK)
        var timeout = timeval(tv_sec: 2, tv_usec: 0)
        setsockopt(connection, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let written = send(connection, raw.baseAddress! + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
                if written < 0 && errno == EINTR { continue }
                guard written > 0 else { return }
                offset += written
            }
        }
    }

    /// The uid of the process at the other end of a Unix socket.
    private static func peerUser(of connection: Int32) -> uid_t? {
        var credentials = PeerCredentials()
        var length = socklen_t(MemoryLayout<PeerCredentials>.size)
        guard getsockopt(connection, SOL_SOCKET, SO_PEERCRED, &credentials, &length) == 0 else { return nil }
        return credentials.uid
    }
}

/// Linux's `struct ucred`, which Glibc's Swift module leaves out (it needs `_GNU_SOURCE`):
/// three 32-bit fields, as `SO_PEERCRED` fills them.
private struct PeerCredentials {
    var pid: pid_t = 0
    var uid: uid_t = 0
    var gid: gid_t = 0
}
