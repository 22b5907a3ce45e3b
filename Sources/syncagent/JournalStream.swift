import Glibc

/// Whether stderr is connected to the journal, as systemd says to tell: `$JOURNAL_STREAM`
/// holds the device and inode numbers (`DEV:INODE`) of the stream systemd connected, and
/// stderr is that stream only if `fstat(2)` finds the same two numbers.
///
/// The variable alone is not enough: a child of a service inherits it with stderr sent
/// elsewhere (`syncagent --once 2>log` from a unit's shell), and that reader wants plain lines.
/// - SeeAlso: https://www.freedesktop.org/software/systemd/man/latest/systemd.exec.html#%24JOURNAL_STREAM
enum JournalStream {
    /// Whether stderr is the stream `$JOURNAL_STREAM` names.
    static func isStandardError() -> Bool {
        guard let value = getenv("JOURNAL_STREAM"), let stream = parse(String(cString: value)) else { return false }
        var status = stat()
        guard fstat(STDERR_FILENO, &status) == 0 else { return false }
        return UInt64(status.st_dev) == stream.device && UInt64(status.st_ino) == stream.inode
    }

    /// The device and inode numbers of `DEV:INODE`, both decimal, or nil if it is not that form.
    static func parse(_ value: String) -> (device: UInt64, inode: UInt64)? {
        let parts = value.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, let device = UInt64(parts[0]), let inode = UInt64(parts[1]) else { return nil }
        return (device, inode)
    }
}
