import Foundation

/// A mount namespace of a command's own (`unshare`) in which an empty file lies over one path,
/// so the command meets that file as broken (a library the loader finds "too short") while
/// the rest of the machine keeps it.
///
/// ``isAvailable`` says whether this process may make one; the answer comes from trying it once.
/// The kernel refuses a user namespace to a chrooted process, and as root `unshare --mount`
/// makes every mount private, which fails where `/` is no mount point — both the case in
/// `fresh-root-ci`'s chroot — and locked-down containers may refuse either. Nothing is
/// tried that could leak the bind mount out of the namespace (`--propagation unchanged`).
public enum PrivateMountNamespace {
    /// Whether a command can run with a path hidden (see ``command(hiding:running:)``).
    public static var isAvailable: Bool { unshare != nil }
    /// Why ``isAvailable`` is false, for a skipped test.
    public static let unavailableReason =
        "hiding a file needs a mount namespace (`unshare --user --mount`, or `--mount` as root), which a chroot or a locked-down container refuses"

    /// `command` in a namespace of its own where `path` is an empty file (`/dev/null` bound over
    /// it); nil where ``isAvailable`` is false.
    public static func command(hiding path: String, running command: [String]) -> [String]? {
        unshare.map { $0 + ["--", "/bin/sh", "-c", hideAndRun, path] + command }
    }

    private static let hideAndRun = #"mount --bind /dev/null "$0" && exec "$@""#

    /// The `unshare` words that hide a file here: a user namespace first (no root needed), then,
    /// as root, a plain mount namespace. Found by hiding a scratch file and seeing it empty.
    private static let unshare: [String]? = {
        var candidates = [["/usr/bin/unshare", "--user", "--map-current-user", "--mount"]]
        if geteuid() == 0 { candidates.append(["/usr/bin/unshare", "--mount"]) }
        guard let folder = try? TemporaryDirectory(prefix: "mount-namespace-probe") else { return nil }
        let scratch = folder.appending("hidden")
        guard FileManager.default.createFile(atPath: scratch, contents: Data("x".utf8)) else { return nil }
        return candidates.first { words in
            let run = try? ToolRun(words + ["--", "/bin/sh", "-c", hideAndRun, scratch, "/usr/bin/test", "!", "-s", scratch])
            return run?.status == 0
        }
    }()
}
