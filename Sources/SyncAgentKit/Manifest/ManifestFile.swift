#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads a manifest file's bytes, and nothing else: no writes, no environment.
enum ManifestFile {
    /// No manifest is anywhere near this big; 10,000 entries take about 1.5 MB.
    static let maximumSize = 64 * 1024 * 1024

    /// Why the file could not be read.
    struct Problem: Error, Sendable, Equatable {
        /// The kind of problem, for ``ManifestError``.
        var code: ManifestError.Code
        /// A sentence for a person, lowercase start, no final period.
        var message: String
    }

    /// The whole content of the file at `path`.
    static func contents(of path: String) throws(Problem) -> [UInt8] {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw cannotRead(errno) }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw cannotRead(errno)
            }
            if count == 0 { return bytes }
            bytes.append(contentsOf: chunk[..<count])
            if bytes.count > maximumSize {
                throw Problem(code: .tooLarge, message: "the manifest is larger than \(maximumSize / 1024 / 1024) MB; expected a short list of files")
            }
        }
    }

    private static func cannotRead(_ error: Int32) -> Problem {
        Problem(code: .unreadable, message: "cannot read the manifest: \(systemReason(error))")
    }
}
