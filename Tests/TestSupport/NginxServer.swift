import Foundation

/// A real nginx from Debian, serving a folder on 127.0.0.1 on a free port, with its own
/// configuration and logs in a temporary folder.
///
/// Every request is logged as one JSON line with the headers that matter for mirroring —
/// `Range`, `If-Range`, `If-None-Match`, `If-Modified-Since` — so a test can assert what the
/// client asked for.
public final class NginxServer: ServedFolder, @unchecked Sendable {
    /// What the server serves from: put files here.
    public let root: String
    public let port: Int
    /// The certificate the server presents (its own CA), with `tls: true`; else `nil`.
    public let certificatePath: String?
    private let directory: TemporaryDirectory
    private let process: Process

    /// Starts nginx. `locations` is extra configuration inside the `server` block, e.g.
    /// `location /slow/ { limit_rate 100k; }`. With `tls`, it serves HTTPS only — TLS 1.3,
    /// HTTP/2 offered, as real mirrors do — with a certificate made for the run
    /// (``certificatePath``); ask for ``secureURL(_:)``.
    public init(locations: String = "", tls: Bool = false) throws {
        directory = try TemporaryDirectory(prefix: "nginx")
        root = directory.appending("www")
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        certificatePath = tls ? directory.appending("certificate.pem") : nil
        do {
            if let certificatePath {
                try TestCertificate.make(certificate: certificatePath, key: directory.appending("key.pem"))
            }
            (port, process) = try LocalPort.startServer("nginx") { [directory, root] port in
                try Self.configuration(prefix: directory.path, root: root, port: port, locations: locations, tls: tls)
                    .write(toFile: directory.appending("nginx.conf"), atomically: true, encoding: .utf8)
                let process = Process()
                process.executableURL = URL(fileURLWithPath: "/usr/sbin/nginx")
                process.arguments = ["-p", directory.path, "-c", directory.appending("nginx.conf"), "-e", directory.appending("error.log")]
                process.standardOutput = FileHandle.nullDevice
                process.standardError = FileHandle.nullDevice
                try process.run()
                return process
            } isRunning: { $0.isRunning } stop: { process in
                kill(process.processIdentifier, SIGKILL)
                process.waitUntilExit()
            } failure: { [directory] in
                (try? String(contentsOfFile: directory.appending("error.log"), encoding: .utf8)) ?? ""
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
        public let method: String
        public let uri: String
        public let status: Int
        public let range: String
        public let ifRange: String
        public let ifNoneMatch: String
        public let ifModifiedSince: String
        public let bytesSent: Int
        /// "HTTP/1.1", "HTTP/2.0".
        public let `protocol`: String
        /// nginx's serial number of the connection the request came on.
        public let connection: Int

        enum CodingKeys: String, CodingKey {
            case method, uri, status, range, ifRange = "if_range", ifNoneMatch = "if_none_match", `protocol`, connection
            case ifModifiedSince = "if_modified_since", bytesSent = "bytes_sent"
        }
    }

    /// `https://127.0.0.1:PORT/path`, for a server started with `tls: true`.
    public func secureURL(_ path: String) -> String { "https://127.0.0.1:\(port)/\(path)" }

    /// Every request logged so far, oldest first.
    public func requests() -> [Request] {
        guard let log = FileManager.default.contents(atPath: directory.appending("access.log")) else { return [] }
        return log.split(separator: UInt8(ascii: "\n")).compactMap { try? JSONDecoder().decode(Request.self, from: Data($0)) }
    }

    /// The logged requests for one path ("/a.pdf").
    public func requests(for uri: String) -> [Request] { requests().filter { $0.uri == uri } }

    /// The logged requests for one path once there are at least `count` of them (nginx logs a
    /// request after its response has gone out, so a client can be a moment ahead of the log),
    /// or whatever is logged after two seconds.
    public func requests(for uri: String, count: Int) -> [Request] {
        logged(atLeast: count, within: .seconds(2)) { requests(for: uri) }
    }

    /// Kills nginx (SIGKILL: see PLATFORM.md on blocked SIGTERM) and deletes its folder.
    public func stop() {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        directory.remove()
    }

    private static func configuration(prefix: String, root: String, port: Int, locations: String, tls: Bool) -> String {
        let listen = tls
            ? """
            listen 127.0.0.1:\(port) ssl http2;
                    ssl_certificate \(prefix)/certificate.pem;
                    ssl_certificate_key \(prefix)/key.pem;
                    ssl_protocols TLSv1.3;
            """
            : "listen 127.0.0.1:\(port);"
        return """
        daemon off;
        master_process off;
        worker_processes 1;
        pid \(prefix)/nginx.pid;
        error_log \(prefix)/error.log warn;
        events { worker_connections 512; }
        http {
            log_format mirror escape=json '{"method":"$request_method","uri":"$request_uri","status":$status,'
                '"range":"$http_range","if_range":"$http_if_range","if_none_match":"$http_if_none_match",'
                '"if_modified_since":"$http_if_modified_since","bytes_sent":$body_bytes_sent,'
                '"protocol":"$server_protocol","connection":$connection}';
            access_log \(prefix)/access.log mirror;
            client_body_temp_path \(prefix)/client_body;
            proxy_temp_path \(prefix)/proxy;
            fastcgi_temp_path \(prefix)/fastcgi;
            uwsgi_temp_path \(prefix)/uwsgi;
            scgi_temp_path \(prefix)/scgi;
            types { application/pdf pdf; text/html html; text/plain txt; }
            default_type application/octet-stream;
            sendfile on;
            server {
                \(listen)
                root \(root);
                \(locations)
            }
        }
        """
    }
}
