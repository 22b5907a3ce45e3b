import Foundation

/// A folder no write can go into, for tests of the errors that say so: a read-only tmpfs
/// where this process may mount one (root writes through any permission bits), else a folder
/// with mode 0555.
public final class UnwritableFolder: Sendable {
    /// The folder.
    public let path: String
    /// How the system words the refusal: "read-only file system" or "permission denied".
    public let reason: String
    private let mount: ScratchMount?

    /// An unwritable folder; without root, made inside `folder`.
    public init(in folder: TemporaryDirectory) throws {
        if ScratchMount.isAvailable {
            let mount = try ScratchMount(bytes: 64 << 10, readOnly: true)
            self.mount = mount
            path = mount.path
            reason = "read-only file system"
        } else {
            mount = nil
            path = folder.appending("readonly")
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o555])
            reason = "permission denied"
        }
    }

    /// Unmounts the tmpfs, if one was mounted; doing it twice is harmless.
    public func remove() {
        mount?.remove()
    }
}
