import Foundation

/// A fresh folder under the system's temporary folder, deleted by ``remove()``.
public struct TemporaryDirectory: Sendable {
    public let path: String

    /// Creates `…/syncagent-<prefix>-XXXXXX`.
    public init(prefix: String) throws {
        var template = Array((NSTemporaryDirectory() + "/syncagent-\(prefix)-XXXXXX").utf8CString)
        guard let created = mkdtemp(&template) else {
            throw TestSupportError("cannot create a temporary folder: \(String(cString: strerror(errno)))")
        }
        path = String(cString: created)
    }

    /// The path of `name` inside this folder.
    public func appending(_ name: String) -> String { path + "/" + name }

    public func remove() {
        try? FileManager.default.removeItem(atPath: path)
    }
}

/// A test harness that could not set up what a test needs.
public struct TestSupportError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
