import Foundation
import Synchronization

/// A program a test starts, killed together with everything it started when the test calls
/// ``stop()``, when the last reference goes away, or when the test process dies.
///
/// The program runs in a process group of its own. Next to it runs a small `/bin/sh`
/// watchdog that reads a socket whose other end only this process holds: when this process
/// exits or crashes, the kernel closes that end and the watchdog kills the program's group
/// with SIGKILL. ``stop()`` kills the group with SIGKILL itself, so programs that block or
/// ignore SIGTERM still go, and reaps both the program and the watchdog.
///
/// The program starts with no blocked signals and default signal actions (a Swift Testing
/// worker thread may block SIGTERM, and exec keeps a blocked mask), stdin from `/dev/null`,
/// stdout readable line by line through ``readLine(timeout:)``, and no other file
/// descriptors of the test process.
public final class ChildProcess: Sendable {
    /// Where the program's standard error goes.
    public enum ErrorOutput: Sendable {
        /// Thrown away.
        case discard
        /// Appended to the file at this path, created if needed; read it when a test fails.
        case file(String)
    }

    /// The program's pid, which is also the id of the process group it and its children share.
    public let pid: pid_t
    /// The program's file name, for messages.
    public let name: String
    private let watchdogPID: pid_t
    private let state: Mutex<State>

    /// The descriptors this process holds for the child.
    private struct State {
        /// The read side of the program's stdout.
        var output: Int32
        /// Lines not read yet.
        var buffer: [UInt8] = []
        /// Closing this end tells the watchdog to kill the group; -1 once closed.
        var watchdogSocket: Int32
        var isStopped = false
    }

    /// Starts `executable` (an absolute path) with `arguments` and exactly `environment`.
    public init(
        _ executable: String,
        arguments: [String] = [],
        environment: [String: String] = ProcessInfo.processInfo.environment,
        standardError: ErrorOutput = .discard
    ) throws {
        name = URL(fileURLWithPath: executable).lastPathComponent
        guard access(executable, X_OK) == 0 else {
            throw TestSupportError("cannot run \(executable): \(String(cString: strerror(errno)))")
        }
        let stdout = try SocketPair()
        let watchdog: SocketPair
        do {
            watchdog = try SocketPair()
        } catch {
            stdout.closeBothEnds()
            throw error
        }
        defer {
            close(stdout.child)
            close(watchdog.child)
        }

        let program: pid_t
        let watchdogPID: pid_t
        do {
            program = try Self.spawn(
                [executable] + arguments,
                environment: environment,
                standardInput: nil,
                standardOutput: stdout.child,
                standardError: standardError
            )
        } catch {
            close(stdout.parent)
            close(watchdog.parent)
            throw error
        }
        do {
            watchdogPID = try Self.spawn(
                ["/bin/sh", "-c", Self.watchdogScript, "syncagent-watchdog", String(program)],
                environment: [:],
                standardInput: watchdog.child,
                standardOutput: nil,
                standardError: .discard
            )
        } catch {
            Self.kill(group: program)
            Self.reap(program)
            close(stdout.parent)
            close(watchdog.parent)
            throw error
        }
        pid = program
        self.watchdogPID = watchdogPID
        state = Mutex(State(output: stdout.parent, watchdogSocket: watchdog.parent))
    }

    deinit {
        stop()
    }

    /// The next line the program writes to stdout, without its newline.
    ///
    /// Throws when `timeout` passes first, or when the program (and everything it started)
    /// closed stdout — usually because it exited.
    public func readLine(timeout: Duration) throws -> String {
        let deadline = ContinuousClock.now + timeout
        return try state.withLock { state in
            while true {
                if let newline = state.buffer.firstIndex(of: UInt8(ascii: "\n")) {
                    let line = String(decoding: state.buffer[..<newline], as: UTF8.self)
                    state.buffer.removeSubrange(...newline)
                    return line
                }
                guard !state.isStopped else {
                    throw TestSupportError(.outputClosed, "\(name) was stopped before it wrote a line")
                }
                let remaining = deadline - ContinuousClock.now
                guard remaining > .zero else {
                    throw TestSupportError(.timedOut, "\(name) wrote no line within \(timeout)")
                }
                var request = pollfd(fd: state.output, events: Int16(POLLIN), revents: 0)
                let ready = poll(&request, 1, Int32(clamping: remaining.wholeMillisecondsRoundedUp))
                if ready < 0, errno != EINTR {
                    throw TestSupportError("cannot wait for \(name)'s output: \(String(cString: strerror(errno)))")
                }
                guard ready > 0 else { continue }
                var chunk = [UInt8](repeating: 0, count: 4096)
                let count = read(state.output, &chunk, chunk.count)
                if count > 0 {
                    state.buffer += chunk[..<count]
                } else if count == 0 {
                    let partial = String(decoding: state.buffer, as: UTF8.self)
                    throw TestSupportError(.outputClosed, "\(name) closed its output before it wrote a whole line (got \"\(partial)\")")
                } else if errno != EINTR {
                    throw TestSupportError("cannot read \(name)'s output: \(String(cString: strerror(errno)))")
                }
            }
        }
    }

    /// Kills the program and everything in its process group with SIGKILL, and reaps it and
    /// the watchdog. Waits for a ``readLine(timeout:)`` in progress first; doing it twice
    /// is harmless.
    public func stop() {
        let descriptors: (output: Int32, watchdog: Int32)? = state.withLock { state in
            guard !state.isStopped else { return nil }
            state.isStopped = true
            return (state.output, state.watchdogSocket)
        }
        guard let descriptors else { return }
        Self.kill(group: pid)
        if descriptors.watchdog >= 0 {
            close(descriptors.watchdog)
        }
        // The program is reaped last: until then its pid, and so its group id, cannot be
        // reused, so the watchdog's own kill can never hit a stranger.
        Self.reap(watchdogPID)
        Self.reap(pid)
        close(descriptors.output)
    }

    /// Lets go of the watchdog's socket the way the kernel does when the test process dies,
    /// so a test can watch the watchdog kill the group. ``stop()`` still reaps afterwards.
    func closeWatchdogSocket() {
        state.withLock { state in
            guard state.watchdogSocket >= 0 else { return }
            close(state.watchdogSocket)
            state.watchdogSocket = -1
        }
    }

    /// Waits for the socket on stdin to close, then kills the process group given as $1.
    private static let watchdogScript = """
        while read -r _; do :; done
        kill -KILL "-$1" 2>/dev/null
        """

    /// Starts `argv` in a new process group, with clean signal state and only the given
    /// descriptors; `nil` standard input or output means `/dev/null`.
    private static func spawn(
        _ argv: [String],
        environment: [String: String],
        standardInput: Int32?,
        standardOutput: Int32?,
        standardError: ErrorOutput
    ) throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if let standardInput {
            posix_spawn_file_actions_adddup2(&actions, standardInput, 0)
        } else {
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        }
        if let standardOutput {
            posix_spawn_file_actions_adddup2(&actions, standardOutput, 1)
        } else {
            posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        }
        switch standardError {
        case .discard:
            posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        case .file(let path):
            posix_spawn_file_actions_addopen(&actions, 2, path, O_WRONLY | O_CREAT | O_APPEND, 0o644)
        }
        // Descriptors another test opened without close-on-exec would otherwise leak into
        // a long-lived child and keep that test from seeing its pipes close.
        for descriptor in openDescriptors() where descriptor > 2 {
            posix_spawn_file_actions_addclose(&actions, descriptor)
        }

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawnattr_setflags(
            &attributes,
            Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF)
        )
        posix_spawnattr_setpgroup(&attributes, 0)
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        var defaultSignals = sigset_t()
        sigemptyset(&defaultSignals)
        for signal in [SIGHUP, SIGINT, SIGQUIT, SIGPIPE, SIGTERM, SIGUSR1, SIGUSR2, SIGCHLD] {
            sigaddset(&defaultSignals, signal)
        }
        posix_spawnattr_setsigdefault(&attributes, &defaultSignals)

        var pid: pid_t = 0
        let status = withCStrings(argv) { arguments in
            withCStrings(environment.map { "\($0.key)=\($0.value)" }) { envp in
                posix_spawn(&pid, argv[0], &actions, &attributes, arguments, envp)
            }
        }
        guard status == 0 else {
            throw TestSupportError("cannot start \(argv[0]): \(String(cString: strerror(status)))")
        }
        return pid
    }

    private static func kill(group: pid_t) {
        _ = Glibc.kill(-group, SIGKILL)
    }

    private static func reap(_ pid: pid_t) {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
    }

    private static func openDescriptors() -> [Int32] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        return names.compactMap { Int32($0) }
    }
}

/// Two connected Unix stream sockets, both close-on-exec from the start, so no other
/// process the test starts meanwhile inherits them.
private struct SocketPair {
    /// The end this process keeps.
    let parent: Int32
    /// The end the child gets (duplicated onto a standard descriptor).
    let child: Int32

    init() throws {
        var descriptors: [Int32] = [-1, -1]
        let type = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        guard socketpair(AF_UNIX, type, 0, &descriptors) == 0 else {
            throw TestSupportError("cannot create a socket pair: \(String(cString: strerror(errno)))")
        }
        parent = descriptors[0]
        child = descriptors[1]
    }

    /// For when the child was never started.
    func closeBothEnds() {
        close(parent)
        close(child)
    }
}

/// Calls `body` with `strings` as a NULL-terminated C array, valid for the call only.
private func withCStrings<Result>(
    _ strings: [String],
    _ body: ([UnsafeMutablePointer<CChar>?]) -> Result
) -> Result {
    let pointers = strings.map { strdup($0) } + [nil]
    defer { pointers.forEach { free($0) } }
    return body(pointers)
}

extension Duration {
    /// For `poll(2)`: never zero while any time is left.
    fileprivate var wholeMillisecondsRoundedUp: Int64 {
        let (seconds, attoseconds) = components
        let attosecondsPerMillisecond: Int64 = 1_000_000_000_000_000
        return seconds * 1000 + (attoseconds + attosecondsPerMillisecond - 1) / attosecondsPerMillisecond
    }
}
