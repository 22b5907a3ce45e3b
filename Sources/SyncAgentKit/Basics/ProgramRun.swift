internal import CLinux
import Glibc

/// What a program run to its end left: its exit status and what it wrote.
struct ProgramRun: Sendable, Equatable {
    /// The exit status; 128 + the signal's number when a signal ended it (as shells say).
    var status: Int32
    var output: String
    var errorOutput: String

    /// Runs `executable` with `arguments`, this process's environment, standard input from
    /// /dev/null and both outputs captured, and waits for it to end. Throws why it could not
    /// start ("no such file or directory").
    ///
    /// posix_spawn(3) rather than Foundation's `Process`: syncagent links only
    /// FoundationEssentials, and spawning is a few lines of C's own API.
    static func run(_ executable: String, _ arguments: [String]) throws(ProgramRunFailure) -> ProgramRun {
        var outputPipe: [Int32] = [-1, -1]
        var errorPipe: [Int32] = [-1, -1]
        guard pipe2(&outputPipe, O_CLOEXEC) == 0 else { throw ProgramRunFailure(reason: systemReason()) }
        guard pipe2(&errorPipe, O_CLOEXEC) == 0 else {
            let reason = systemReason()
            outputPipe.forEach { close($0) }
            throw ProgramRunFailure(reason: reason)
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        // dup2 clears close-on-exec on the copy: the child keeps 1 and 2, and no other end.
        posix_spawn_file_actions_adddup2(&actions, outputPipe[1], 1)
        posix_spawn_file_actions_adddup2(&actions, errorPipe[1], 2)

        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var child: pid_t = 0
        let spawned = posix_spawn(&child, executable, &actions, nil, argv, environ)
        close(outputPipe[1])
        close(errorPipe[1])
        guard spawned == 0 else {
            close(outputPipe[0])
            close(errorPipe[0])
            throw ProgramRunFailure(reason: systemReason(spawned))
        }
        let (output, errorOutput) = readBoth(outputPipe[0], errorPipe[0])
        close(outputPipe[0])
        close(errorPipe[0])
        return ProgramRun(status: waitForExit(child), output: output, errorOutput: errorOutput)
    }

    /// Reads two pipes to their ends at once, so a child that fills one while the other is
    /// read never stalls.
    private static func readBoth(_ first: Int32, _ second: Int32) -> (String, String) {
        var collected: [[UInt8]] = [[], []]
        var watched = [pollfd(fd: first, events: Int16(POLLIN), revents: 0), pollfd(fd: second, events: Int16(POLLIN), revents: 0)]
        var buffer = [UInt8](repeating: 0, count: 4096)
        while watched.contains(where: { $0.fd >= 0 }) {
            guard poll(&watched, nfds_t(watched.count), -1) >= 0 || errno == EINTR else { break }
            for index in watched.indices where watched[index].fd >= 0 && watched[index].revents != 0 {
                let count = read(watched[index].fd, &buffer, buffer.count)
                if count > 0 {
                    collected[index] += buffer[..<count]
                } else if count == 0 || errno != EINTR {
                    watched[index].fd = -1  // poll(2) skips negative descriptors
                }
            }
        }
        return (String(decoding: collected[0], as: UTF8.self), String(decoding: collected[1], as: UTF8.self))
    }

    private static func waitForExit(_ child: pid_t) -> Int32 {
        var status: Int32 = 0
        while waitpid(child, &status, 0) < 0 {
            guard errno == EINTR else { return 127 }
        }
        // WIFEXITED / WEXITSTATUS / WTERMSIG, which Swift does not import (they are macros).
        let signal = status & 0x7f
        return signal == 0 ? (status >> 8) & 0xff : 128 + signal
    }
}

/// Why a program could not be started.
struct ProgramRunFailure: Error, Sendable {
    var reason: String
}
