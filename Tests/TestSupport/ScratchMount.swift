import Foundation

/// A small tmpfs mounted on a fresh temporary folder, for tests of a full or read-only disk.
///
/// Mounting needs root (or CAP_SYS_ADMIN); ``isAvailable`` says whether this process can, so
/// a test can be skipped with its reason. Unmounted (lazily, so open files cannot block it)
/// and deleted by ``remove()`` or when the last reference goes away.
public final class ScratchMount: Sendable {
    /// The mounted folder.
    public let path: String
    private let folder: TemporaryDirectory

    /// Whether this process may mount a tmpfs (it runs as root).
    public static var isAvailable: Bool { geteuid() == 0 }

    /// Why ``isAvailable`` is false, for a skipped test.
    public static let unavailableReason = "mounting a small tmpfs needs root; run the tests as root to check a full disk"

    /// Mounts a tmpfs of `bytes` (rounded up to whole pages), read-only when `readOnly`.
    public convenience init(bytes: Int, readOnly: Bool = false) throws {
        try self.init(type: "tmpfs", options: "size=\(bytes),mode=0755" + (readOnly ? ",ro" : ""))
    }

    /// Mounts a file system of `type` with `options` (`mount -t TYPE -o OPTIONS`), e.g. a
    /// private `devpts` instance where the machine's `/dev/pts` is not mounted (a chroot).
    public init(type: String, options: String) throws {
        folder = try TemporaryDirectory(prefix: type)
        path = folder.path
        try runTool("/bin/mount", ["-t", type, "-o", options, "syncagent-test", path])
    }

    deinit {
        remove()
    }

    /// The absolute path of `name` inside the mount.
    public func appending(_ name: String) -> String {
        "\(path)/\(name)"
    }

    /// Bytes free on the mount.
    public var availableBytes: Int {
        var info = statvfs()
        guard statvfs(path, &info) == 0 else { return 0 }
        return Int(info.f_bavail) * Int(info.f_frsize)
    }

    /// Unmounts and deletes the folder; doing it twice is harmless.
    public func remove() {
        _ = try? runTool("/bin/umount", ["--lazy", path])
        folder.remove()
    }
}
