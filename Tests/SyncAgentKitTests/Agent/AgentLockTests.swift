import Foundation
import Glibc
import Testing
import TestSupport
@testable import SyncAgentKit

/// One agent per user: the lock file's `flock` is taken once, names its holder, and goes
/// with the holder.
struct AgentLockTests {
    let folder: TemporaryDirectory

    init() throws {
        folder = try TemporaryDirectory(prefix: "agentlock")
    }

    /// The lock file's text, or nil when it cannot be read.
    func contents(_ path: String) -> String? {
        (try? Data(contentsOf: URL(fileURLWithPath: path))).map { String(decoding: $0, as: UTF8.self) }
    }

    /// Why a lock at `path` cannot be taken, or nil when it can (and was released again).
    func lockError(at path: String) -> AgentError? {
        do {
            _ = try AgentLock(path: path)
            return nil
        } catch {
            return error
        }
    }

    @Test func createsTheStateFolderAndWritesItsProcessID() throws {
        let path = folder.appending("state/syncagent/agent.lock")
        let lock = try AgentLock(path: path)
        #expect(lock.path == path)
        var info = stat()
        #expect(stat(folder.appending("state/syncagent"), &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR)
        #expect(contents(path) == "\(getpid())\n")
        #expect(stat(path, &info) == 0 && info.st_mode & 0o7777 == 0o600, "only its user may read or write the lock file")
        withExtendedLifetime(lock) {}
    }

    @Test func aLockFileLeftBehindIsTakenAndRewritten() throws {
        // A dead agent's file holds no flock: only its text is left, longer than ours.
        let path = folder.appending("agent.lock")
        try Data("4194304999\n".utf8).write(to: URL(fileURLWithPath: path))
        let lock = try AgentLock(path: path)
        #expect(contents(path) == "\(getpid())\n")
        withExtendedLifetime(lock) {}
    }

    @Test func aLockFileOfTheSameLengthIsWrittenOver() throws {
        // Not emptied first (that frees its block): the same number of digits, overwritten.
        let path = folder.appending("agent.lock")
        let ours = "\(getpid())\n"
        try Data((String(repeating: "9", count: ours.utf8.count - 1) + "\n").utf8).write(to: URL(fileURLWithPath: path))
        let lock = try AgentLock(path: path)
        #expect(contents(path) == ours)
        withExtendedLifetime(lock) {}
    }

    /// `flock` locks belong to the open file description, so a second open in the same
    /// process conflicts just as another process would.
    @Test func aSecondLockInTheSameProcessIsRefusedNamingTheHolder() throws {
        let path = folder.appending("agent.lock")
        let first = try AgentLock(path: path)
        let error = try #require(lockError(at: path))
        #expect(error.code == .alreadyRunning)
        #expect(error.message == "syncagent is already running for this user (process \(getpid())); "
            + "`syncagent status` shows what it is doing")
        // The refused attempt closed only its own descriptor: the first still holds the lock.
        #expect(lockError(at: path)?.code == .alreadyRunning)
        #expect(contents(path) == "\(getpid())\n")
        withExtendedLifetime(first) {}
    }

    /// A class whose stored properties are all set runs its deinit when its init throws: a
    /// descriptor the init closes before throwing is closed twice, and in a process with
    /// other threads the second close can hit a number one of them has just been given. That
    /// second close fails with EBADF, so errno tells.
    @Test func aRefusedLockClosesItsDescriptorOnlyOnce() throws {
        let path = folder.appending("agent.lock")
        let first = try AgentLock(path: path)
        errno = 0
        let error = lockError(at: path)
        let lastFailure = errno
        #expect(error?.code == .alreadyRunning)
        #expect(lastFailure != EBADF, "the refused lock's descriptor was closed twice")
        withExtendedLifetime(first) {}
    }

    @Test func aLockHeldByAnotherProcessNamesThatProcess() throws {
        let path = folder.appending("agent.lock")
        // flock(1) holds the lock (its own descriptor only, so it goes with flock when reaped)
        // while the shell writes its pid into the file the way an agent does.
        let holder = try ChildProcess("/usr/bin/flock", arguments: [
            "--nonblock", "--close", path, "/bin/sh", "-c", "echo $$ > \"$0\"; echo $$; exec sleep 3600", path,
        ])
        defer { holder.stop() }
        let holderID = try holder.readLine(timeout: .seconds(30))
        #expect(holderID != "\(getpid())")
        let error = try #require(lockError(at: path))
        #expect(error.code == .alreadyRunning)
        #expect(error.message.contains("(process \(holderID))"))
        holder.stop()
        // The kernel dropped the lock with its holder; the file's stale text does not matter.
        let lock = try AgentLock(path: path)
        #expect(contents(path) == "\(getpid())\n")
        withExtendedLifetime(lock) {}
    }

    @Test func aHolderThatWroteNoProcessIDIsStillRefused() throws {
        let path = folder.appending("agent.lock")
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        try #require(descriptor >= 0)
        defer { close(descriptor) }
        try #require(flock(descriptor, LOCK_EX | LOCK_NB) == 0)
        let error = try #require(lockError(at: path))
        #expect(error.code == .alreadyRunning)
        #expect(error.message.hasPrefix("syncagent is already running for this user; "))
    }

    @Test func theLockIsReleasedWhenTheHolderGoes() throws {
        let path = folder.appending("agent.lock")
        var first: AgentLock? = try AgentLock(path: path)
        #expect(lockError(at: path)?.code == .alreadyRunning)
        withExtendedLifetime(first) {}
        first = nil
        // A child another test spawns just then holds a copy of the descriptor until its
        // exec; the lock goes when that copy does, so wait for it rather than expect it at once.
        #expect(try waitUntilFree(path), "the lock was still held after its holder went")
        let second = try AgentLock(path: path)
        withExtendedLifetime(second) {}
    }

    /// Whether the lock on `path` is free within half a minute: a blocking `flock` on a
    /// thread of its own, which wakes the moment the holder lets go.
    func waitUntilFree(_ path: String) throws -> Bool {
        var done: [Int32] = [0, 0]
        try #require(pipe(&done) == 0)
        defer { close(done[0]) }
        let signalEnd = done[1]
        Thread {
            let probe = open(path, O_RDWR | O_CLOEXEC)
            if probe >= 0 && flock(probe, LOCK_EX) == 0 {
                flock(probe, LOCK_UN)
                var free: UInt8 = 1
                _ = Glibc.write(signalEnd, &free, 1)
            }
            if probe >= 0 { close(probe) }
            close(signalEnd)
        }.start()
        var entry = pollfd(fd: done[0], events: Int16(POLLIN), revents: 0)
        guard poll(&entry, 1, 30_000) == 1 else { return false }
        var free: UInt8 = 0
        return read(done[0], &free, 1) == 1
    }

    @Test func aFolderThatCannotBeWrittenIsAClearError() throws {
        let unwritable = try UnwritableFolder(in: folder)
        defer { unwritable.remove() }
        let readOnly = unwritable.path
        let reason = unwritable.reason

        let inFolder = try #require(lockError(at: readOnly + "/agent.lock"))
        #expect(inFolder == AgentError(.cannotLock, "cannot open the lock file \(readOnly)/agent.lock: \(reason)"))

        let belowFolder = try #require(lockError(at: readOnly + "/state/agent.lock"))
        #expect(belowFolder.code == .cannotLock)
        #expect(belowFolder.message.hasPrefix("cannot create \(readOnly)/state: "))
        #expect(belowFolder.message.hasSuffix(reason))
    }

    @Test func aFileWhereTheFolderShouldBeIsAClearError() throws {
        let blocker = folder.appending("state")
        try Data("a file".utf8).write(to: URL(fileURLWithPath: blocker))
        let error = try #require(lockError(at: blocker + "/agent.lock"))
        #expect(error == AgentError(.cannotLock, "cannot create \(blocker): cannot create the folder \(blocker): a file of that name is in the way"))
    }
}
