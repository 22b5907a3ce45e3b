import Foundation

/// A real Apache 2 from Debian (`/usr/sbin/apache2`), serving a folder on 127.0.0.1 on a free
/// port with its own configuration, logs and pid file in a temporary folder.
///
/// It runs as one process (`-X`), dropping to `www-data` as Debian's does, so the folder is
/// readable by all. Every request is logged as one JSON line with the headers that matter for
/// mirroring, so a test can assert what the client asked for.
///
/// ```swift
/// let apache = try ApacheServer(directory: "SetEnv force-gzip 1\nSetOutputFilter DEFLATE")
/// try apache.serve("report.pdf", data)   // sent gzip-encoded, whatever the client accepts
/// ```
public final class ApacheServer: ServedFolder, Sendable {
    /// What the server serves from: put files here.
    public let root: String
    public let port: Int
    private let directory: TemporaryDirectory
    private let process: ChildProcess

    /// The modules the configuration uses; the rest of Debian's are left out.
    private static let modules = [
        "mpm_event", "authz_core", "mime", "filter", "deflate", "env", "headers", "setenvif",
    ]

    /// Starts Apache. `directory` is extra configuration inside the served folder's
    /// `<Directory>` block, e.g. `SetOutputFilter DEFLATE`.
    public init(directory settings: String = "") throws {
        directory = try TemporaryDirectory(prefix: "apache")
        root = directory.appending("www")
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        // mkdtemp makes the folder private; the server's user must read below it.
        chmod(directory.path, 0o755)
        do {
            (port, process) = try LocalPort.startServer("apache2") { [directory, root] port in
                try Self.configuration(prefix: directory.path, root: root, port: port, settings: settings)
                    .write(toFile: directory.appending("httpd.conf"), atomically: true, encoding: .utf8)
                return try ChildProcess(
                    "/usr/sbin/apache2", arguments: ["-X", "-f", directory.appending("httpd.conf")],
                    environment: ["PATH": "/usr/sbin:/usr/bin:/bin"], standardError: .file(directory.appending("stderr.log"))
                )
            } stop: { $0.stop() } failure: { [directory] in
                Self.log("stderr.log", in: directory) + Self.log("error.log", in: directory)
            }
        } catch {
            directory.remove()
            throw error
        }
    }

    deinit {
        stop()
    }

    /// One logged request.
    public struct Request: Decodable, Sendable {
        public let request: String
        public let status: Int
        public let range: String
        public let ifNoneMatch: String
        public let ifModifiedSince: String
        public let acceptEncoding: String

        enum CodingKeys: String, CodingKey {
            case request, status, range, ifNoneMatch = "if_none_match", ifModifiedSince = "if_modified_since"
            case acceptEncoding = "accept_encoding"
        }
    }

    /// Every request logged so far, oldest first. Apache logs a request once its response
    /// has gone out, which is before the client has seen all of it.
    public func requests() -> [Request] {
        guard let log = FileManager.default.contents(atPath: directory.appending("access.log")) else { return [] }
        return log.split(separator: UInt8(ascii: "\n")).compactMap { try? JSONDecoder().decode(Request.self, from: Data($0)) }
    }

    /// The logged requests once there are at least `count` of them, or whatever is logged
    /// after two seconds.
    public func requests(count: Int) -> [Request] {
        logged(atLeast: count, within: .seconds(2)) { requests() }
    }

    /// Kills Apache and deletes its folder; doing it twice is harmless.
    public func stop() {
        process.stop()
        directory.remove()
    }

    private func log(_ name: String) -> String { Self.log(name, in: directory) }

    private static func log(_ name: String, in directory: TemporaryDirectory) -> String {
        (try? String(contentsOfFile: directory.appending(name), encoding: .utf8)) ?? ""
    }

    private static func configuration(prefix: String, root: String, port: Int, settings: String) -> String {
        let loads = modules.map { "LoadModule \($0)_module /usr/lib/apache2/modules/mod_\($0).so" }.joined(separator: "\n")
        return """
            ServerRoot "\(prefix)"
            PidFile \(prefix)/httpd.pid
            Listen 127.0.0.1:\(port)
            ServerName 127.0.0.1
            User www-data
            Group www-data
            \(loads)
            ErrorLog \(prefix)/error.log
            LogFormat "{\\"request\\":\\"%r\\",\\"status\\":%>s,\\"range\\":\\"%{Range}i\\",\\"if_none_match\\":\\"%{If-None-Match}i\\",\\"if_modified_since\\":\\"%{If-Modified-Since}i\\",\\"accept_encoding\\":\\"%{Accept-Encoding}i\\"}" mirror
            CustomLog \(prefix)/access.log mirror
            TypesConfig /etc/mime.types
            DocumentRoot \(root)
            <Directory \(root)>
                Require all granted
                \(settings)
            </Directory>
            """
    }
}
