import Foundation

/// A real lighttpd from Debian (`scripts/install-deps --test`), serving a folder on 127.0.0.1
/// on a free port, in the foreground, with its own configuration and logs in a temporary
/// folder; stopped with SIGKILL by ``stop()`` or when the last reference goes away.
///
/// Files under `slow/` are sent at `slowRate` bytes a second (`connection.kbytes-per-second`),
/// so a test can interrupt a transfer halfway. Each request is logged with its `Range` header.
public final class LighttpdServer: ServedFolder, Sendable {
    /// What the server serves from: put files here.
    public let root: String
    public let port: Int
    private let directory: TemporaryDirectory
    private let process: ChildProcess

    /// Starts lighttpd; returns once it says it has started (it has bound its port by then).
    public init(slowRate: Int = 2 << 20) throws {
        let executable = "/usr/sbin/lighttpd"
        guard FileManager.default.isExecutableFile(atPath: executable) else {
            throw TestSupportError("\(executable) is not installed; run scripts/install-deps --test")
        }
        directory = try TemporaryDirectory(prefix: "lighttpd")
        root = directory.appending("www")
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        var lastError: Error = TestSupportError("lighttpd did not start")
        for _ in 0..<5 {
            let port = try LocalPort.free()
            let configuration = directory.appending("lighttpd.conf")
            try Self.configuration(prefix: directory.path, root: root, port: port, slowRate: slowRate)
                .write(toFile: configuration, atomically: true, encoding: .utf8)
            // Without server.errorlog, lighttpd logs to stderr; sent to stdout here, its
            // "server started" line is the sign that it listens.
            let process = try ChildProcess(
                "/bin/sh", arguments: ["-c", "exec \"$0\" -D -f \"$1\" 2>&1", executable, configuration]
            )
            var said: [String] = []
            do {
                while true {
                    let line = try process.readLine(timeout: .seconds(20))
                    if line.contains("server started") { break }
                    said.append(line)
                }
                self.port = port
                self.process = process
                return
            } catch {
                lastError = TestSupportError("lighttpd did not start (\(error)): \(said.joined(separator: " / "))")
                process.stop()
            }
        }
        directory.remove()
        throw lastError
    }

    deinit {
        stop()
    }

    /// Every request logged so far, oldest first.
    public func requests() -> [LoggedRequest] {
        guard let log = try? String(contentsOfFile: directory.appending("access.log"), encoding: .utf8) else { return [] }
        return log.split(separator: "\n").compactMap { line in
            let fields = line.split(separator: "|", omittingEmptySubsequences: false).map(String.init)
            guard fields.count == 4, let status = Int(fields[2]) else { return nil }
            return LoggedRequest(method: fields[0], uri: fields[1], status: status, range: fields[3] == "-" ? "" : fields[3])
        }
    }

    /// The logged requests for one path once there are at least `count` of them, or whatever
    /// is logged after five seconds: lighttpd writes its access log in batches, about once a second.
    public func requests(for uri: String, count: Int) -> [LoggedRequest] {
        logged(atLeast: count, within: .seconds(5)) { requests().filter { $0.uri == uri } }
    }

    /// Kills lighttpd and deletes its folder; doing it twice is harmless.
    public func stop() {
        process.stop()
        directory.remove()
    }

    private static func configuration(prefix: String, root: String, port: Int, slowRate: Int) -> String {
        """
        server.document-root = "\(root)"
        server.bind = "127.0.0.1"
        server.port = \(port)
        server.upload-dirs = ( "\(prefix)" )
        server.modules = ( "mod_accesslog" )
        accesslog.filename = "\(prefix)/access.log"
        accesslog.format = "%m|%U|%>s|%{Range}i"
        mimetype.assign = ( ".pdf" => "application/pdf", ".txt" => "text/plain", "" => "application/octet-stream" )
        $HTTP["url"] =~ "^/slow/" { connection.kbytes-per-second = \(max(1, slowRate / 1024)) }

        """
    }
}
