import Foundation

/// A test server that serves a folder on 127.0.0.1: what nginx, Apache, lighttpd and Python's
/// http.server launchers share.
public protocol ServedFolder {
    /// What the server serves from: put files here.
    var root: String { get }
    var port: Int { get }
}

extension ServedFolder {
    /// `http://127.0.0.1:PORT/path`.
    public func url(_ path: String) -> String { "http://127.0.0.1:\(port)/\(path)" }

    /// Writes a file under the served root, creating folders.
    public func serve(_ path: String, _ contents: Data) throws {
        let file = root + "/" + path
        try FileManager.default.createDirectory(atPath: (file as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try contents.write(to: URL(fileURLWithPath: file))
    }
}

/// What `read` returns once it has at least `count` entries, or after `limit`: servers log a
/// request after its response has gone out (some in batches), so a client can be ahead of
/// the log.
public func logged<Entry>(atLeast count: Int, within limit: Duration, _ read: () -> [Entry]) -> [Entry] {
    let deadline = ContinuousClock.now + limit
    var entries = read()
    while entries.count < count, ContinuousClock.now < deadline {
        usleep(10_000)
        entries = read()
    }
    return entries
}
