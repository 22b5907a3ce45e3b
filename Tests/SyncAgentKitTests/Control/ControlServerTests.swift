import Foundation
import Glibc
import Synchronization
import Testing
import TestSupport
@testable import SyncAgentKit

/// The control socket end to end inside one process: a real ``ControlServer`` on a Unix
/// socket in a temporary folder, driven the way the agent's loop drives it (poll its
/// descriptors, hand over the readable ones), and ``ControlClient`` or a raw socket on the
/// other end.
struct ControlServerTests {
    let folder: TemporaryDirectory
    /// Inside a folder that does not exist yet, as on a first start.
    let path: String

    init() throws {
        folder = try TemporaryDirectory(prefix: "control")
        path = folder.appending("run/syncagent/control")
    }

    /// The agent's stand-in: says which command and titles it got.
    static func echo(_ request: ControlRequest) -> ControlResponse {
        ControlResponse(ok: true, message: ([request.command.rawValue] + request.titles).joined(separator: " "))
    }

    // MARK: Driving the server

    /// Polls the server's descriptors and `others` once, waiting at most until `deadline`;
    /// serves the server's readable ones and returns the readable ones among `others`.
    @discardableResult
    func serveOnce(_ server: ControlServer, watching others: [pollfd] = [], until deadline: ContinuousClock.Instant,
                   answer: (ControlRequest) -> ControlResponse) throws -> [pollfd] {
        let remaining = deadline - .now
        guard remaining > .zero else { throw TestSupportError("the exchange did not end within the test's time limit") }
        var entries = others + server.descriptors.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
        let limit = Int32(clamping: remaining.components.seconds * 1000 + 1)
        guard poll(&entries, nfds_t(entries.count), limit) >= 0 || errno == EINTR else {
            throw TestSupportError("poll failed: \(String(cString: strerror(errno)))")
        }
        let serverReadable = entries[others.count...].filter { $0.revents != 0 }.map(\.fd)
        server.serve(readable: Set(serverReadable), answer: answer)
        return entries[..<others.count].filter { $0.revents != 0 }
    }

    /// Sends `request` with ``ControlClient`` from another thread while this thread serves,
    /// and returns what the client got.
    func ask(_ server: ControlServer, _ request: ControlRequest, timeout: Duration = .seconds(30),
             answer: (ControlRequest) -> ControlResponse = ControlServerTests.echo) throws -> Result<ControlResponse, ControlError> {
        let outcome = ClientOutcome()
        var done: [Int32] = [0, 0]
        try #require(pipe(&done) == 0)
        defer { close(done[0]) }
        let signalEnd = done[1]
        let socketPath = server.path
        Thread {
            outcome.result.withLock { $0 = Result { () throws(ControlError) in try ControlClient.send(request, to: socketPath, timeout: timeout) } }
            close(signalEnd)
        }.start()
        let deadline = ContinuousClock.now + .seconds(60)
        while try serveOnce(server, watching: [pollfd(fd: done[0], events: Int16(POLLIN), revents: 0)], until: deadline, answer: answer).isEmpty {}
        return try #require(outcome.result.withLock { $0 })
    }

    /// Sends `bytes` on a connection of its own, half-closes it when `endInput`, serves until
    /// the server closes the connection, and returns every byte the server wrote.
    func exchangeRaw(_ server: ControlServer, _ bytes: [UInt8], endInput: Bool = false,
                     answer: (ControlRequest) -> ControlResponse = ControlServerTests.echo) throws -> [UInt8] {
        let connection = try connectRaw(server.path)
        defer { close(connection) }
        var sent = 0
        var received: [UInt8] = []
        let deadline = ContinuousClock.now + .seconds(60)
        var inputEnded = false
        while true {
            if sent == bytes.count && endInput && !inputEnded {
                shutdown(connection, Int32(SHUT_WR))
                inputEnded = true
            }
            let events = sent < bytes.count ? POLLIN | POLLOUT : POLLIN
            let ready = try serveOnce(server, watching: [pollfd(fd: connection, events: Int16(events), revents: 0)], until: deadline, answer: answer)
            guard let entry = ready.first else { continue }
            if entry.revents & Int16(POLLOUT) != 0 && sent < bytes.count {
                let written = bytes[sent...].withUnsafeBytes { send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                if written > 0 { sent += written }
            }
            if entry.revents & Int16(POLLIN | POLLHUP) != 0 {
                var chunk = [UInt8](repeating: 0, count: 4096)
                let count = recv(connection, &chunk, chunk.count, 0)
                if count == 0 { return received }
                if count > 0 { received += chunk[..<count] }
            }
        }
    }

    /// The server's answer to `bytes` sent raw, decoded.
    func answerToRaw(_ server: ControlServer, _ bytes: [UInt8], endInput: Bool = false) throws -> ControlResponse {
        let received = try exchangeRaw(server, bytes, endInput: endInput)
        #expect(received.last == UInt8(ascii: "\n"), "an answer is one line")
        return try ControlProtocol.decoder().decode(ControlResponse.self, from: Data(received))
    }

    /// A non-blocking connection to the socket at `path`.
    func connectRaw(_ path: String) throws -> Int32 {
        let connection = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        try #require(connection >= 0)
        let address = try #require(UnixSocketAddress(path: path))
        guard address.withSocketAddress({ connect(connection, $0, $1) }) == 0 else {
            let reason = String(cString: strerror(errno))
            close(connection)
            throw TestSupportError("cannot connect to \(path): \(reason)")
        }
        return connection
    }

    /// Leaves a socket file at `path` with nobody listening, as a killed agent does.
    func leaveSocketFile(at path: String) throws {
        let stale = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        try #require(stale >= 0)
        defer { close(stale) }
        let address = try #require(UnixSocketAddress(path: path))
        try #require(address.withSocketAddress { bind(stale, $0, $1) } == 0)
        try #require(try mode(of: path) & S_IFMT == S_IFSOCK)
    }

    /// Permission bits and file type of `path`.
    func mode(of path: String) throws -> mode_t {
        var info = stat()
        try #require(stat(path, &info) == 0, "cannot stat \(path)")
        return info.st_mode
    }

    // MARK: Answers

    @Test func aRequestIsAnsweredOverTheSocket() throws {
        let server = try ControlServer(path: path)
        var asked: [ControlRequest] = []
        let response = try ask(server, ControlRequest(.pause, titles: ["Alpha", "Beta"])) { request in
            asked.append(request)
            return Self.echo(request)
        }.get()
        #expect(response == ControlResponse(ok: true, message: "pause Alpha Beta"))
        #expect(asked == [ControlRequest(.pause, titles: ["Alpha", "Beta"])])
        #expect(server.descriptors.count == 1, "the answered connection is closed")
        // And the next one, on the same server.
        #expect(try ask(server, ControlRequest(.status)).get().message == "status")
    }

    @Test func theFolderIsPrivateAndTheSocketOnlyForItsUser() throws {
        let server = try ControlServer(path: path)
        let folderMode = try mode(of: splitPath(path).folder)
        #expect(folderMode & S_IFMT == S_IFDIR && folderMode & 0o7777 == 0o700)
        let socketMode = try mode(of: path)
        #expect(socketMode & S_IFMT == S_IFSOCK && socketMode & 0o7777 == 0o600)
        withExtendedLifetime(server) {}
    }

    @Test func aFolderThatExistsIsMadePrivate() throws {
        let existing = splitPath(path).folder
        try FileManager.default.createDirectory(atPath: existing, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
        let server = try ControlServer(path: path)
        #expect(try mode(of: existing) & 0o7777 == 0o700)
        withExtendedLifetime(server) {}
    }

    @Test func aSocketLeftByAnAgentThatDiedIsReplaced() throws {
        try FileManager.default.createDirectory(atPath: splitPath(path).folder, withIntermediateDirectories: true)
        try leaveSocketFile(at: path)
        let server = try ControlServer(path: path)
        #expect(try ask(server, ControlRequest(.resume)).get().ok)
    }

    @Test func aRequestEndedByClosingTheWriteSideIsAnswered() throws {
        let server = try ControlServer(path: path)
        let request = try ControlProtocol.encoder().encode(ControlRequest(.stop, titles: ["Gamma"]))
        #expect(try answerToRaw(server, Array(request), endInput: true) == ControlResponse(ok: true, message: "stop Gamma"))
    }

    @Test func aRequestArrivingInPiecesIsAnsweredOnceWhole() throws {
        let server = try ControlServer(path: path)
        let line = Array(try ControlProtocol.encoder().encode(ControlRequest(.start, titles: ["Delta"]))) + [UInt8(ascii: "\n")]
        let connection = try connectRaw(server.path)
        defer { close(connection) }
        let deadline = ContinuousClock.now + .seconds(60)
        #expect(send(connection, line, 10, Int32(MSG_NOSIGNAL)) == 10)
        var asked: [ControlRequest] = []
        let record = { (request: ControlRequest) in
            asked.append(request)
            return Self.echo(request)
        }
        // Accept, then read the first piece: the connection waits for the rest.
        while server.descriptors.count == 1 { try serveOnce(server, until: deadline, answer: record) }
        let pending = try #require(server.descriptors.last)
        var entry = pollfd(fd: pending, events: Int16(POLLIN), revents: 0)
        try #require(poll(&entry, 1, 60_000) == 1)
        server.serve(readable: [pending], answer: record)
        #expect(server.descriptors.count == 2 && asked.isEmpty)
        var byte: UInt8 = 0
        #expect(recv(connection, &byte, 1, 0) == -1 && errno == EAGAIN, "no answer to half a line")

        #expect(line[10...].withUnsafeBytes { send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) } == line.count - 10)
        while server.descriptors.count == 2 { try serveOnce(server, until: deadline, answer: record) }
        #expect(asked == [ControlRequest(.start, titles: ["Delta"])])
        var answer = [UInt8](repeating: 0, count: 4096)
        var entryForAnswer = pollfd(fd: connection, events: Int16(POLLIN), revents: 0)
        try #require(poll(&entryForAnswer, 1, 60_000) == 1)
        let count = recv(connection, &answer, answer.count, 0)
        try #require(count > 0)
        #expect(try ControlProtocol.decoder().decode(ControlResponse.self, from: Data(answer[..<count])) == ControlResponse(ok: true, message: "start Delta"))
    }

    @Test func aConnectionThatSaysNothingIsClosedWithoutAnAnswer() throws {
        let server = try ControlServer(path: path)
        #expect(try exchangeRaw(server, [], endInput: true).isEmpty)
        #expect(server.descriptors.count == 1)
    }

    // MARK: Refusals

    @Test func aRequestLineOfTheLongestLengthIsRead() throws {
        let server = try ControlServer(path: path)
        var line = Array(try ControlProtocol.encoder().encode(ControlRequest(.status)))
        line += Array(repeating: UInt8(ascii: " "), count: ControlProtocol.maximumRequestLength - line.count)
        #expect(try answerToRaw(server, line + [UInt8(ascii: "\n")]) == ControlResponse(ok: true, message: "status"))
    }

    @Test func aTooLongRequestLineGetsAnErrorAnswer() throws {
        let server = try ControlServer(path: path)
        var line = Array(try ControlProtocol.encoder().encode(ControlRequest(.status)))
        line += Array(repeating: UInt8(ascii: " "), count: ControlProtocol.maximumRequestLength + 1 - line.count)
        let response = try answerToRaw(server, line + [UInt8(ascii: "\n")])
        #expect(response == .failure("the request is longer than 65536 bytes"))
        #expect(server.descriptors.count == 1)
        // A line far past the limit, ended by closing instead of a newline, is read to its end.
        let huge = [UInt8](repeating: UInt8(ascii: "x"), count: 1 << 20)
        #expect(try answerToRaw(server, huge, endInput: true) == .failure("the request is longer than 65536 bytes"))
        #expect(try ask(server, ControlRequest(.status)).get().ok)
    }

    @Test func aLineThatIsNotJSONGetsAnErrorAnswerAndTheServerCarriesOn() throws {
        let server = try ControlServer(path: path)
        var asked: [ControlRequest] = []
        let response = try answerToRaw(server, Array("pause everything\n".utf8))
        #expect(response == .failure("the request is not a JSON object with a \"version\""))
        #expect(try answerToRaw(server, Array("{\"command\":\"pause\"}\n".utf8)) == .failure("the request is not a JSON object with a \"version\""))
        #expect(server.descriptors.count == 1)
        let next = try ask(server, ControlRequest(.pause)) { request in
            asked.append(request)
            return Self.echo(request)
        }.get()
        #expect(next.ok && asked == [ControlRequest(.pause)])
    }

    @Test func aCommandItDoesNotKnowGetsAnErrorAnswer() throws {
        let server = try ControlServer(path: path)
        let response = try answerToRaw(server, Array("{\"version\":1,\"command\":\"explode\",\"titles\":[]}\n".utf8))
        #expect(response == .failure("the request is not one this agent understands"))
    }

    @Test func aVersionItDoesNotSpeakGetsAnAnswerNamingBoth() throws {
        let server = try ControlServer(path: path)
        var asked: [ControlRequest] = []
        let response = try ask(server, ControlRequest(.reset, version: 2)) { request in
            asked.append(request)
            return Self.echo(request)
        }.get()
        #expect(response == .failure("protocol version 2 is not supported; this agent speaks version 1"))
        #expect(response.version == ControlProtocol.version)
        #expect(asked.isEmpty, "a request in another version is never carried out")
    }

    /// The folder's mode keeps other users out; behind it, the server checks each peer's uid
    /// too. A child that is root for the file system (fsuid 0, so it reaches the socket) but
    /// another user by its effective uid, which `SO_PEERCRED` reports, plays the stranger.
    @Test(.enabled(if: geteuid() == 0, "only root can connect as another user"))
    func anotherUserIsRefusedAndNothingIsCarriedOut() throws {
        let server = try ControlServer(path: path)
        let script = """
            import ctypes, os, socket, sys
            libc = ctypes.CDLL(None, use_errno=True)
            os.seteuid(65534)
            if libc.setfsuid(0) != 65534 or libc.setfsuid(0) != 0: sys.exit("cannot keep fsuid 0")
            connection = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            connection.connect(sys.argv[1])
            connection.sendall(b'{"command":"stop","titles":[],"version":1}\\n')
            answer = b""
            while chunk := connection.recv(4096): answer += chunk
            print(answer.decode().strip(), flush=True)
            """
        let stranger = try ChildProcess("/usr/bin/python3", arguments: ["-c", script, path], standardError: .file(folder.appending("stranger.log")))
        defer { stranger.stop() }
        var asked: [ControlRequest] = []
        let record = { (request: ControlRequest) in
            asked.append(request)
            return Self.echo(request)
        }
        let deadline = ContinuousClock.now + .seconds(60)
        while server.descriptors.count == 1 { try serveOnce(server, until: deadline, answer: record) }
        while server.descriptors.count > 1 { try serveOnce(server, until: deadline, answer: record) }
        let line = try stranger.readLine(timeout: .seconds(60))
        let response = try ControlProtocol.decoder().decode(ControlResponse.self, from: Data(line.utf8))
        #expect(response == .failure("permission denied: the agent answers only its own user"))
        #expect(asked.isEmpty)
    }

    // MARK: The client's errors

    @Test func aClientWhereNoSocketIsFindsNoAgent() throws {
        #expect(throws: ControlError(.agentNotRunning, "the agent is not running")) {
            try ControlClient.send(ControlRequest(.status), to: path)
        }
    }

    @Test func aClientAtASocketNobodyListensOnFindsNoAgent() throws {
        let leftBehind = folder.appending("left-behind")
        try leaveSocketFile(at: leftBehind)
        #expect(throws: ControlError(.agentNotRunning, "the agent is not running")) {
            try ControlClient.send(ControlRequest(.status), to: leftBehind)
        }
    }

    @Test func theSocketGoesWithTheServer() throws {
        var server: ControlServer? = try ControlServer(path: path)
        #expect(access(path, F_OK) == 0)
        withExtendedLifetime(server) {}
        server = nil
        #expect(access(path, F_OK) != 0)
        #expect(throws: ControlError(.agentNotRunning, "the agent is not running")) {
            try ControlClient.send(ControlRequest(.status), to: path)
        }
    }

    @Test func aClientWaitsOnlyAsLongAsItsTimeout() throws {
        let server = try ControlServer(path: path)
        // Connected (the kernel's backlog accepts it) but never served.
        #expect(throws: ControlError(.failed, "the agent did not answer within 0.2 seconds")) {
            try ControlClient.send(ControlRequest(.status), to: path, timeout: .milliseconds(200))
        }
        withExtendedLifetime(server) {}
    }

    @Test func aPathTooLongForAUnixSocketIsAClearError() throws {
        let long = folder.appending(String(repeating: "d", count: 120) + "/control")
        #expect(throws: ControlError(.failed, "the control socket path \(long) is too long for a Unix socket")) {
            try ControlClient.send(ControlRequest(.status), to: long)
        }
        #expect(throws: ControlError(.cannotListen, "the control socket path \(long) is too long for a Unix socket")) {
            _ = try ControlServer(path: long)
        }
    }
}

extension ControlServerTests {
    @Test func aFolderWhereNoSocketCanBeMadeIsAClearError() throws {
        let unwritable = try UnwritableFolder(in: folder)
        defer { unwritable.remove() }
        let readOnly = unwritable.path
        let reason = unwritable.reason
        #expect(throws: ControlError(.cannotListen, "cannot listen on \(readOnly)/control: \(reason)")) {
            _ = try ControlServer(path: readOnly + "/control")
        }
    }
}

/// What the client thread of ``ControlServerTests/ask(_:_:timeout:answer:)`` got.
private final class ClientOutcome: Sendable {
    let result = Mutex<Result<ControlResponse, ControlError>?>(nil)
}
