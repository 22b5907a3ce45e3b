import Foundation

/// A fresh, empty directory for one test, deleted with everything in it by ``remove()``
/// or when the last reference goes away.
///
/// Lives under the system temporary directory with a short name, so Unix socket paths
/// inside it stay well under the 108-byte limit.
public final class TemporaryDirectory: Sendable {
    /// The directory's absolute path, without a trailing slash.
    public let path: String

    /// Creates the directory; `prefix` makes leftovers recognisable, e.g. "syncagent-bus".
    public init(prefix: String = "syncagent-test") throws {
        let base = ProcessInfo.processInfo.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        var template = Array("\(base)/\(prefix)-XXXXXX".utf8CString)
        let created = template.withUnsafeMutableBufferPointer { buffer in
            mkdtemp(buffer.baseAddress!).map { String(cString: $0) }
        }
        guard let created else {
            throw TestSupportError("cannot create a temporary directory in \(base): \(String(cString: strerror(errno)))")
        }
        path = created
    }

    deinit {
        remove()
    }

    /// The absolute path of `name` inside the directory.
    public func appending(_ name: String) -> String {
        "\(path)/\(name)"
    }

    /// Deletes the directory and everything in it; doing it twice is harmless.
    public func remove() {
        try? FileManager.default.removeItem(atPath: path)
    }
}
