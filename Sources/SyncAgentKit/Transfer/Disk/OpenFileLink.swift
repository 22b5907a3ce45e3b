internal import CLinux
import Glibc

/// Gives an open file a name: `linkat(2)` of the descriptor's entry in `/proc/self/fd`, which
/// names exactly the file behind the descriptor, with or without a name of its own (a file made
/// with `O_TMPFILE` has none), and fails if it has been deleted. `linkat` with `AT_EMPTY_PATH`
/// would need a capability a user does not have.
enum OpenFileLink {
    /// `/proc/self/fd`, opened once for the process: each link then looks up one name, the
    /// descriptor's number, where a path from `/` walks four, `self` a symbolic link among them
    /// (putting 10,000 small files in place: the look-up 18 % of the kernel's time in `linkat`
    /// with the path, 12 % so). -1 without `/proc`.
    private static let descriptorFolder = open("/proc/self/fd", syncagent_O_PATH | O_DIRECTORY | O_CLOEXEC)

    /// Whether files can be linked by descriptor here (`/proc` is mounted).
    static var isAvailable: Bool { descriptorFolder >= 0 }

    /// Links the file open at `descriptor` to `path`, which must not exist. `false` with `errno`
    /// set when that fails: `EEXIST` when something is at `path`, `ENOENT` when the file was
    /// deleted or `path`'s folder is gone.
    static func link(_ descriptor: Int32, to path: String) -> Bool {
        guard descriptorFolder >= 0 else {
            errno = ENOENT
            return false
        }
        return linkat(descriptorFolder, String(descriptor), AT_FDCWD, path, AT_SYMLINK_FOLLOW) == 0
    }
}
