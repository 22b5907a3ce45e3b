import Foundation
import Testing
@testable import TestSupport

/// The process helper the notification harness (and the nginx harness) is built on.
struct ChildProcessTests {
    @Test func readsStdoutLineByLineThenReportsItsEnd() throws {
        let child = try ChildProcess("/bin/sh", arguments: ["-c", "printf 'one\\ntwo\\n'"])
        defer { child.stop() }

        #expect(try child.readLine(timeout: .seconds(10)) == "one")
        #expect(try child.readLine(timeout: .seconds(10)) == "two")
        let end = #expect(throws: TestSupportError.self) { try child.readLine(timeout: .seconds(10)) }
        #expect(end?.code == .outputClosed)
    }

    @Test func readLineGivesUpAtItsTimeout() throws {
        let child = try ChildProcess("/bin/sh", arguments: ["-c", "exec sleep 1000"])
        defer { child.stop() }
        let clock = ContinuousClock()
        let start = clock.now

        let error = #expect(throws: TestSupportError.self) { try child.readLine(timeout: .milliseconds(200)) }

        #expect(error?.code == .timedOut)
        #expect(clock.now - start >= .milliseconds(200))
    }

    @Test func startsWithNoSignalBlocked() throws {
        // grep reads its own mask, as it was given at exec.
        let child = try ChildProcess("/usr/bin/grep", arguments: ["SigBlk", "/proc/self/status"])
        defer { child.stop() }

        let blocked = try child.readLine(timeout: .seconds(10))

        #expect(blocked == "SigBlk:\t0000000000000000")
    }

    @Test func passesExactlyTheGivenEnvironment() throws {
        let child = try ChildProcess("/usr/bin/env", environment: ["ONLY": "this"])
        defer { child.stop() }

        #expect(try child.readLine(timeout: .seconds(10)) == "ONLY=this")
        #expect(throws: TestSupportError.self) { try child.readLine(timeout: .seconds(10)) }
    }

    @Test func stopKillsAProgramThatIgnoresSIGTERMAndReapsIt() throws {
        let child = try ChildProcess("/bin/sh", arguments: ["-c", "trap '' TERM; echo ready; exec sleep 1000"])
        #expect(try child.readLine(timeout: .seconds(10)) == "ready")

        child.stop()

        // Reaped, not a zombie: the pid is gone.
        #expect(kill(child.pid, 0) == -1)
        #expect(errno == ESRCH)
    }

    @Test func watchdogKillsTheWholeGroupWhenTheTestProcessLetsGo() throws {
        // The background sleep holds the same stdout, so stdout ends only once both are dead.
        let child = try ChildProcess("/bin/sh", arguments: ["-c", "sleep 1000 & echo started; exec sleep 1000"])
        defer { child.stop() }
        #expect(try child.readLine(timeout: .seconds(10)) == "started")

        child.closeWatchdogSocket()

        let end = #expect(throws: TestSupportError.self) { try child.readLine(timeout: .seconds(10)) }
        #expect(end?.code == .outputClosed)
    }

    @Test func refusesAProgramThatCannotRun() {
        #expect(throws: TestSupportError.self) { try ChildProcess("/nonexistent/program") }
    }
}
