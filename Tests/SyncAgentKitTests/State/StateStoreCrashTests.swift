import Foundation
import Testing
@testable import SyncAgentKit

/// Whether a saved record survives the process being killed with SIGKILL at any instant.
///
/// An honest kill needs a second process running our code: the test binary starts itself
/// again, running only ``childSavesUntilKilled()``, which saves in a loop and writes one line
/// to its standard output after each save returns. The parent kills it with SIGKILL while it
/// saves, opens the store, and checks that every acknowledged save is there and that no
/// transaction is half there. Where the kill lands is up to the scheduler; most of the
/// child's time is spent inside SQLite's commits, so that is where it usually lands.
final class StateStoreCrashTests {
    static let childDirectoryVariable = "SYNCAGENT_STATE_CRASH_TEST_DIRECTORY"
    static let batchSize = 4

    let root: String
    var directory: String { root + "/state" }

    init() {
        root = FileManager.default.temporaryDirectory.path + "/syncagent-crash-\(UUID().uuidString)"
    }

    deinit {
        try? FileManager.default.removeItem(atPath: root)
    }

    /// The record every iteration updates in place: the "update one record" hot path.
    static func counter(_ iteration: Int) -> FileRecord {
        FileRecord(
            path: "/kept/counter.pdf", url: "https://example.com/counter.pdf",
            validators: Validators(etag: "\"\(iteration)\""), failedAttempts: iteration,
            lastResult: LastResult(
                kind: .failed, message: "attempt \(iteration)", date: Date(timeIntervalSince1970: Double(iteration))
            )
        )
    }

    /// The records iteration `iteration` adds in one transaction.
    static func batch(_ iteration: Int) -> [FileRecord] {
        (0..<batchSize).map { index in
            let name = "batch-\(String(format: "%06d", iteration))-\(index).pdf"
            return FileRecord(
                path: "/kept/\(name)", url: "https://example.com/\(name)",
                validators: Validators(etag: "\"\(name)\"", lastModified: "Tue, 15 Nov 1994 08:12:31 GMT"),
                size: Int64(iteration), partial: Validators(), failedAttempts: index
            )
        }
    }

    /// What the store holds after the counter reached `counter` and `batches` batches were saved.
    static func state(counter: Int, batches: Int) -> [FileRecord] {
        ([Self.counter(counter)] + (0..<batches).flatMap(batch)).sorted { $0.path < $1.path }
    }

    /// Runs only in the process the parent test starts; skipped in a normal test run.
    @Test(.enabled(if: ProcessInfo.processInfo.environment[childDirectoryVariable] != nil))
    func childSavesUntilKilled() throws {
        let directory = try #require(ProcessInfo.processInfo.environment[Self.childDirectoryVariable])
        let store = try StateStore(directory: directory)
        // Continue where the killed child before stopped, redoing its last iteration.
        let start = try store.record(forPath: Self.counter(0).path)?.failedAttempts ?? 0
        for iteration in start..<(start + 1_000_000) {
            try store.save(Self.counter(iteration))
            try store.save(Self.batch(iteration))
            // One write(2), so the line reaches the pipe whole and stays there after the kill.
            try FileHandle.standardOutput.write(contentsOf: Data("saved \(iteration)\n".utf8))
        }
    }

    /// Four rounds on the same store: each kills a child and reopens what it left behind.
    @Test func everyReturnedSaveSurvivesSIGKILL() throws {
        var previousCount = 0
        for round in 1...4 {
            // Hundreds of iterations per round: enough for the log to pass SQLite's automatic
            // checkpoint (1000 pages) several times, so kills can land in checkpoints too.
            let lastAcknowledged = try runChildUntilKilled(acknowledgements: 400 * round, round: round)
            let saved = try StateStore(directory: directory).records()
            // The child may have got further than its last line: by one save, or by both.
            let possible = [
                Self.state(counter: lastAcknowledged, batches: lastAcknowledged + 1),
                Self.state(counter: lastAcknowledged + 1, batches: lastAcknowledged + 1),
                Self.state(counter: lastAcknowledged + 1, batches: lastAcknowledged + 2),
            ]
            let isConsistent = possible.contains(saved)
            let counter = saved.first { $0.path == Self.counter(0).path }?.failedAttempts
            #expect(
                isConsistent,
                """
                round \(round): last acknowledged \(lastAcknowledged), found \(saved.count) records, \
                counter at \(counter.map(String.init) ?? "nil")
                """
            )
            #expect(saved.count > previousCount, "round \(round) saved nothing or lost records of an earlier round")
            previousCount = saved.count
        }
    }

    /// Starts the child, kills it with SIGKILL after `acknowledgements` saves returned, and
    /// returns the last iteration it acknowledged.
    func runChildUntilKilled(acknowledgements: Int, round: Int) throws -> Int {
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        let errorLog = root + "/child-\(round).stderr"
        try Data().write(to: URL(fileURLWithPath: errorLog))

        let child = Process()
        let testBinary = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        child.executableURL = URL(fileURLWithPath: testBinary)
        child.arguments = ["--testing-library", "swift-testing", "--filter", "childSavesUntilKilled"]
        child.environment = ProcessInfo.processInfo.environment.merging([Self.childDirectoryVariable: directory]) { $1 }
        let output = Pipe()
        child.standardOutput = output
        child.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: errorLog))
        try child.run()

        // A child that hangs would hang the test: kill it after a generous minute, which ends
        // its output and fails the checks below.
        let pid = child.processIdentifier
        let watchdog = DispatchWorkItem { kill(pid, SIGKILL) }
        DispatchQueue.global().asyncAfter(deadline: .now() + 60, execute: watchdog)

        var text = ""
        var acknowledged: [Int] = []
        while acknowledged.count < acknowledgements {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            text += String(decoding: chunk, as: UTF8.self)
            acknowledged = Self.acknowledgedIterations(in: text)
        }
        kill(pid, SIGKILL)
        // Lines the child wrote before it died are still in the pipe: they count too.
        text += String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        acknowledged = Self.acknowledgedIterations(in: text)
        child.waitUntilExit()
        watchdog.cancel()

        let errors = (try? String(contentsOfFile: errorLog, encoding: .utf8)) ?? ""
        try #require(
            child.terminationReason == .uncaughtSignal && child.terminationStatus == SIGKILL,
            "the child was not killed while saving; its output:\n\(text.suffix(2_000))\n\(errors.suffix(2_000))"
        )
        try #require(acknowledged.count >= acknowledgements, "the child stopped early:\n\(errors.suffix(2_000))")
        return try #require(acknowledged.last)
    }

    /// The iterations the child reported as saved, in order.
    static func acknowledgedIterations(in text: String) -> [Int] {
        // The last line may still be arriving; only whole lines count.
        text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().compactMap { line in
            line.hasPrefix("saved ") ? Int(line.dropFirst("saved ".count)) : nil
        }
    }
}
