import Foundation

/// Python's `http.server` (`/usr/bin/python3 -m http.server --bind 127.0.0.1`), serving a folder
/// on a free port; stopped with SIGKILL by ``stop()`` or when the last reference goes away.
///
/// A server many people use to share a folder, and a plain one: HTTP/1.0-style responses
/// with `Content-Length` and `Last-Modified`, `If-Modified-Since` answered with 304, no
/// `ETag`, and `Range` ignored (every GET is a 200 with the whole file).
///
/// With a `throttle`, the server runs in a network namespace of its own (`unshare --net`)
/// whose loopback carries at most that many bytes a second (a `tbf` queue), so a test can
/// interrupt a transfer halfway; a client reaches it only when started through
/// ``clientPrefix``. Each request is logged (method, path, status; no headers).
public final class PythonHTTPServer: ServedFolder, Sendable {
    /// What the server serves from: put files here.
    public let root: String
    public let port: Int
    /// The words to put before a client's command line so that it runs where the server
    /// listens: `nsenter` into the namespace with a throttle, nothing without.
    public let clientPrefix: [String]
    private let directory: TemporaryDirectory
    private let process: ChildProcess

    /// Starts the server; returns once it says it is serving (it has bound its port by then).
    public init(throttle bytesPerSecond: Int? = nil) throws {
        directory = try TemporaryDirectory(prefix: "python-http")
        root = directory.appending("www")
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        let python = "/usr/bin/python3"
        var lastError: Error = TestSupportError("python3 -m http.server did not start")
        for _ in 0..<5 {
            let port = try LocalPort.free()
            let server = [python, "-u", "-m", "http.server", "--bind", "127.0.0.1", "--directory", root, String(port)]
            let process: ChildProcess
            if let bytesPerSecond {
                // lo's MTU is 64 KiB; a burst smaller than a packet would stall the queue.
                let setUp = "/sbin/ip link set lo up && /sbin/tc qdisc add dev lo root tbf rate \(bytesPerSecond * 8)bit burst 256kb latency 1s && exec \"$@\""
                process = try ChildProcess(
                    "/usr/bin/unshare", arguments: ["--net", "--", "/bin/sh", "-c", setUp, "sh"] + server,
                    standardError: .file(directory.appending("requests.log"))
                )
            } else {
                process = try ChildProcess(python, arguments: Array(server.dropFirst()), standardError: .file(directory.appending("requests.log")))
            }
            do {
                let line = try process.readLine(timeout: .seconds(20))
                guard line.hasPrefix("Serving HTTP on") else { throw TestSupportError("python3 -m http.server said: \(line)") }
                self.port = port
                self.process = process
                clientPrefix = bytesPerSecond == nil ? [] : ["/usr/bin/nsenter", "--net=/proc/\(process.pid)/ns/net", "--"]
                return
            } catch {
                let log = (try? String(contentsOfFile: directory.appending("requests.log"), encoding: .utf8)) ?? ""
                lastError = TestSupportError("python3 -m http.server did not start: \(error) \(log)")
                process.stop()
            }
        }
        directory.remove()
        throw lastError
    }

    deinit {
        stop()
    }

    /// Every request logged so far, oldest first, from lines such as
    /// `127.0.0.1 - - [24/Nov/2026 20:17:34] "GET /a.pdf HTTP/1.1" 200 -`.
    public func requests() -> [LoggedRequest] {
        guard let log = try? String(contentsOfFile: directory.appending("requests.log"), encoding: .utf8) else { return [] }
        return log.split(separator: "\n").compactMap { line in
            let quoted = line.split(separator: "\"", omittingEmptySubsequences: false)
            guard quoted.count >= 3 else { return nil }
            let request = quoted[1].split(separator: " ")
            guard request.count == 3, request[2].hasPrefix("HTTP/"),
                let status = quoted[2].split(separator: " ").first.flatMap({ Int($0) })
            else { return nil }
            return LoggedRequest(method: String(request[0]), uri: String(request[1]), status: status, range: nil)
        }
    }

    /// The logged requests for one path once there are at least `count` of them (the server
    /// logs a request as it answers it, so a client can be a moment ahead of the log), or
    /// whatever is logged after two seconds.
    public func requests(for uri: String, count: Int) -> [LoggedRequest] {
        logged(atLeast: count, within: .seconds(2)) { requests().filter { $0.uri == uri } }
    }

    /// Kills the server (and its namespace with it) and deletes its folder; doing it twice
    /// is harmless.
    public func stop() {
        process.stop()
        directory.remove()
    }
}
