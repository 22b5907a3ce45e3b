import Foundation
import Synchronization

/// An HTTP server on 127.0.0.1 that misbehaves on purpose, per path and per request: it cuts
/// connections, sends short or stalled bodies, answers 5xx and 429 with `Retry-After`,
/// redirects anywhere, changes the file and its `ETag` between requests, ignores `Range`,
/// sends a wrong `Content-Range`, or sends an HTML page for a PDF. It logs every request
/// with all its header fields.
///
/// It is `/usr/bin/python3` running ``script`` as a ``ChildProcess``, killed with the test.
/// With `tls: true` it also serves HTTPS on a second port, with a self-signed certificate
/// for 127.0.0.1 made by the `openssl` command; point a client at ``certificatePath``
/// (`CURL_CA_BUNDLE` for syncagent) to trust it.
///
/// ```swift
/// let server = try FaultServer()
/// try server.serve("/a.pdf", data, responses: [.cut(after: 1000), .normal])
/// // first request: reset after 1000 bytes; every later one: the whole file
/// ```
public final class FaultServer: Sendable {
    /// The plain HTTP port.
    public let port: Int
    /// The HTTPS port, with `tls: true`.
    public let securePort: Int?
    /// The certificate the HTTPS port presents (it is its own CA), with `tls: true`.
    public let certificatePath: String?
    private let directory: TemporaryDirectory
    private let process: ChildProcess
    private let routes = Mutex<[String: Route]>([:])

    /// The `Last-Modified` of a served file unless a test says otherwise.
    public static let defaultLastModified = "Sat, 01 Jan 2022 00:00:00 GMT"

    /// One path's file and scripted responses.
    private struct Route: Sendable {
        var file: String
        var etag: String?
        var lastModified: String?
        var contentType: String
        var responses: [(response: FaultResponse, file: String?)]
    }

    /// Starts the server; with `tls`, an HTTPS port too.
    public init(tls: Bool = false) throws {
        directory = try TemporaryDirectory(prefix: "faults")
        try FileManager.default.createDirectory(atPath: directory.appending("files"), withIntermediateDirectories: true)
        let scriptPath = directory.appending("fault-server.py")
        try Self.script.write(toFile: scriptPath, atomically: true, encoding: .utf8)
        var arguments = [scriptPath, directory.path]
        if tls {
            let certificate = directory.appending("certificate.pem")
            let key = directory.appending("key.pem")
            try TestCertificate.make(certificate: certificate, key: key)
            arguments += [certificate, key]
            certificatePath = certificate
        } else {
            certificatePath = nil
        }
        process = try ChildProcess(
            "/usr/bin/python3", arguments: arguments, environment: ["PATH": "/usr/bin:/bin"],
            standardError: .file(directory.appending("fault-server.log"))
        )
        let line: String
        do {
            line = try process.readLine(timeout: .seconds(20))
        } catch {
            let log = (try? String(contentsOfFile: directory.appending("fault-server.log"), encoding: .utf8)) ?? ""
            throw TestSupportError("the fault server did not start: \(error) \(log)")
        }
        let words = line.split(separator: " ")
        guard words.count == 3, words[0] == "ready", let plain = Int(words[1]), let secure = Int(words[2]) else {
            throw TestSupportError("the fault server said \"\(line)\" instead of \"ready PORT PORT\"")
        }
        port = plain
        securePort = tls ? secure : nil
    }

    deinit {
        stop()
    }

    /// `http://127.0.0.1:PORT/path`.
    public func url(_ path: String) -> String {
        "http://127.0.0.1:\(port)\(Self.absolute(path))"
    }

    /// `https://127.0.0.1:PORT/path`, on the TLS port.
    public func secureURL(_ path: String) -> String {
        guard let securePort else { fatalError("this FaultServer was started without tls") }
        return "https://127.0.0.1:\(securePort)\(Self.absolute(path))"
    }

    /// Serves `contents` at `path`: request n gets `responses[n]`, the last one repeating
    /// (none: the file as it is, every time). `n` counts every request for `path` since the
    /// server started, so a test gives each scripted file a path of its own.
    public func serve(
        _ path: String,
        _ contents: Data,
        etag: String? = nil,
        lastModified: String? = FaultServer.defaultLastModified,
        contentType: String? = nil,
        responses: [FaultResponse] = []
    ) throws {
        let path = Self.absolute(path)
        let file = try store(contents)
        var scripted: [(response: FaultResponse, file: String?)] = []
        for response in responses {
            scripted.append((response, try response.contents.map(store)))
        }
        let route = Route(
            file: file, etag: etag ?? "\"\(file)-\(contents.count)\"", lastModified: lastModified,
            contentType: contentType ?? Self.contentType(of: path), responses: scripted
        )
        let table = routes.withLock { routes in
            routes[path] = route
            return Self.settings(of: routes)
        }
        let data = try JSONSerialization.data(withJSONObject: table)
        // Written aside and renamed: the server reads the table afresh for every request.
        let temporary = directory.appending("routes.json.\(UUID().uuidString)")
        try data.write(to: URL(fileURLWithPath: temporary))
        guard rename(temporary, directory.appending("routes.json")) == 0 else {
            throw TestSupportError("cannot update the fault server's routes: \(String(cString: strerror(errno)))")
        }
    }

    /// Every request so far, oldest first.
    public func requests() -> [FaultServerRequest] {
        guard let log = FileManager.default.contents(atPath: directory.appending("requests.jsonl")) else { return [] }
        return log.split(separator: UInt8(ascii: "\n")).compactMap { try? JSONDecoder().decode(FaultServerRequest.self, from: Data($0)) }
    }

    /// The requests for one path ("/a.pdf"), oldest first.
    public func requests(for path: String) -> [FaultServerRequest] {
        let path = Self.absolute(path)
        return requests().filter { $0.path == path }
    }

    /// Kills the server and deletes its folder; doing it twice is harmless.
    public func stop() {
        process.stop()
        directory.remove()
    }

    // MARK: Helpers

    private static func absolute(_ path: String) -> String {
        path.hasPrefix("/") ? path : "/" + path
    }

    /// Writes `contents` into the server's folder; returns its name there.
    private func store(_ contents: Data) throws -> String {
        let name = "files/" + UUID().uuidString
        try contents.write(to: URL(fileURLWithPath: directory.appending(name)))
        return name
    }

    private static func contentType(of path: String) -> String {
        switch (path as NSString).pathExtension.lowercased() {
        case "pdf": "application/pdf"
        case "html": "text/html"
        case "txt": "text/plain"
        default: "application/octet-stream"
        }
    }

    private static func settings(of routes: [String: Route]) -> [String: Any] {
        routes.mapValues { route in
            var settings: [String: Any] = ["file": route.file, "content_type": route.contentType]
            if let etag = route.etag { settings["etag"] = etag }
            if let lastModified = route.lastModified { settings["last_modified"] = lastModified }
            settings["responses"] = route.responses.map { $0.response.settings(file: $0.file) }
            return settings
        }
    }
}
