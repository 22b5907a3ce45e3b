import Foundation
import Testing
import TestSupport

/// Which form the log lines take: the journal's `<4>message` only when stderr is the stream
/// `$JOURNAL_STREAM` names (same device and inode), `syncagent: warning: message` otherwise,
/// as a child of a service that sends its stderr elsewhere still inherits the variable.
///
/// Each run has one warning to log: there is no session bus for its notification.
@Suite(.serialized)
struct JournalStreamTests {
    let server: NginxServer
    let folder: TemporaryDirectory

    init() throws {
        server = try NginxServer()
        folder = try TemporaryDirectory(prefix: "journal-stream")
        try server.serve("a.pdf", Data(repeating: 7, count: 1_000))
        try "destination: \(folder.appending("Guides"))\nfiles:\n  - title: Guide\n    url: \(server.url("a.pdf"))\n"
            .write(toFile: folder.appending("manifest.yaml"), atomically: true, encoding: .utf8)
    }

    /// `syncagent --once` with stderr a file, `$JOURNAL_STREAM` set to what `journalStream`
    /// makes of that file's path; returns the exit status and what stderr got.
    func once(journalStream: (String) throws -> String) throws -> (status: Int32, standardError: String) {
        let errorPath = folder.appending("run.err")
        _ = FileManager.default.createFile(atPath: errorPath, contents: nil)
        var environment = NotificationBus.environmentWithoutSessionBus(runtimeDirectory: folder.path)
        environment["HOME"] = folder.appending("home")
        environment["JOURNAL_STREAM"] = try journalStream(errorPath)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try BuiltProducts.executable(named: "syncagent"))
        process.arguments = ["--once", "--manifest", folder.appending("manifest.yaml"), "--state-dir", folder.appending("state")]
        process.environment = environment
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle(forWritingAtPath: errorPath)
        try process.run()
        process.waitUntilExit()
        return (process.terminationStatus, (try? String(contentsOfFile: errorPath, encoding: .utf8)) ?? "")
    }

    @Test func anInheritedJournalStreamThatIsNotStderrGetsPlainLines() throws {
        let run = try once { _ in "8:1" }
        #expect(run.status == 0)
        #expect(run.standardError.contains("syncagent: warning: could not show the desktop notification"), "\(run.standardError)")
        #expect(!run.standardError.contains("<4>"))
    }

    @Test func stderrThatIsTheNamedStreamGetsPriorityPrefixes() throws {
        let run = try once { path in
            var status = stat()
            guard stat(path, &status) == 0 else { throw TestSupportError("cannot stat \(path)") }
            return "\(status.st_dev):\(status.st_ino)"
        }
        #expect(run.status == 0)
        #expect(run.standardError.contains("<4>could not show the desktop notification"), "\(run.standardError)")
    }
}
