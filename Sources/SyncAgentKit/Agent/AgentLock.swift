import Glibc

/// One agent per user: an exclusive `flock(2)` on a lock file, held for the agent's life.
///
/// The kernel drops the lock when the process ends, however it ends (`kill -9` included), so a
/// stale lock file never blocks the next start.
public final class AgentLock {
    public let path: String
    private let descriptor: Int32

    /// Takes the lock, or says which agent holds it.
    public init(path: String) throws(AgentError) {
        self.path = path
        let folder = splitPath(path).folder
        do {
            try FileSystem.createFolders(folder)
        } catch {
            throw AgentError(.cannotLock, "cannot create \(folder): \(error.message)")
        }
        descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw AgentError(.cannotLock, "cannot open the lock file \(path): \(systemReason())")
        }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            let holder = Self.readProcessID(descriptor).map { " (process \($0))" } ?? ""
            // Not closed here: deinit runs when an init with every property set throws, and a
            // second close could hit a number another thread has just been given.
            throw AgentError(.alreadyRunning, "syncagent is already running for this user\(holder); "
                + "`syncagent status` shows what it is doing")
        }
        let processID = Array("\(getpid())\n".utf8)
        // Emptied only when the last holder's number was not as long: emptying a file that has
        // data frees its block (0.4 ms on ext4, far more while the disk is busy) and makes ext4
        // write it back at close (auto_da_alloc), all on the way to a small re-check's first
        // request; a number of the same length is simply written over.
        var status = stat()
        if fstat(descriptor, &status) != 0 || Int(status.st_size) != processID.count { ftruncate(descriptor, 0) }
        _ = processID.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
    }

    deinit {
        close(descriptor)
    }

    private static func readProcessID(_ descriptor: Int32) -> Int? {
        var buffer = [UInt8](repeating: 0, count: 32)
        let count = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { return nil }
        return Int(String(decoding: buffer[..<count], as: UTF8.self).trimmingSpaces().filter(\.isNumber))
    }
}
