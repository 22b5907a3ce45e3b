import Foundation
import Testing
@testable import SyncAgentKit

/// ``CommitThread``: groups put in place on real files, in the order handed over, while the
/// thread that handed them over goes on.
struct CommitThreadTests {
    let files: CommitGroupTests

    init() throws {
        files = try CommitGroupTests()
    }

    @Test func putsGroupsInPlaceInTheOrderHandedOverAndTellsEachTime() throws {
        let told = Tally()
        let thread = CommitThread(onResults: { told.add() })
        thread.putInPlace(try (0..<3).map { try files.staged("a\($0).bin", "first \($0)", id: $0) })
        thread.putInPlace(try (3..<20).map { try files.staged("sub/b\($0).bin", "second \($0)", id: $0, named: $0.isMultiple(of: 2)) })
        let results = thread.waitForResults()
        #expect(results.map(\.member.id) == Array(0..<20))
        #expect(results.allSatisfy { $0.failure == nil })
        #expect(told.count == 2, "one wake for each group")
        #expect(files.contents("a0.bin") == "first 0" && files.contents("sub/b19.bin") == "second 19")
        #expect(!thread.hasWork && thread.ids.isEmpty && thread.takeResults().isEmpty)
        thread.finish()
    }

    /// Handing a group over never waits for it to be put in place: the engine goes on
    /// receiving meanwhile. Until the engine takes the results, the files count as its own.
    @Test func handingOverDoesNotWaitAndTheIDsStayUntilTheResultsAreTaken() throws {
        let gate = ConditionLock()
        let open = Flag()
        let told = Tally()
        let thread = CommitThread(putInPlace: { group in
            gate.withLock { while !open.isSet { gate.wait() } }
            return CommitGroup.putInPlace(group)
        }, onResults: { told.add() })
        thread.putInPlace([try files.staged("a.bin", "a", id: 1)])
        thread.putInPlace([try files.staged("b.bin", "b", id: 2), try files.staged("c.bin", "c", id: 3)])
        #expect(thread.isBusy && thread.hasWork, "both groups wait behind the closed gate")
        #expect(Set(thread.ids) == [1, 2, 3])
        #expect(files.contents("a.bin") == nil, "nothing is in place before its group is")
        gate.withLock {
            open.set()
            gate.broadcast()
        }
        told.wait(for: 2)
        #expect(!thread.isBusy && thread.hasWork, "put in place, not yet taken")
        #expect(Set(thread.ids) == [1, 2, 3])
        #expect(thread.takeResults().map(\.member.id) == [1, 2, 3])
        #expect(!thread.hasWork && thread.ids.isEmpty)
        #expect(files.contents("a.bin") == "a" && files.contents("c.bin") == "c")
        thread.finish()
    }

    @Test func aMemberThatCannotBePutInPlaceIsReportedWithWhy() throws {
        let thread = CommitThread(onResults: {})
        let member = try files.staged("gone.bin", "checked", id: 4, named: true)
        #expect(unlink(files.folder.appending(".gone.bin.part")) == 0)
        thread.putInPlace([member, try files.staged("kept.bin", "kept", id: 5)])
        let results = thread.waitForResults()
        #expect(results.map(\.member.id) == [4, 5])
        #expect(results[0].failure?.code == .disk && results[1].failure == nil)
        thread.finish()
    }

    @Test func finishingWaitsForTheGroupsHandedOver() throws {
        let thread = CommitThread(onResults: {})
        thread.putInPlace(try (0..<40).map { try files.staged("f\($0).bin", "file \($0)", id: $0) })
        thread.finish()
        #expect((0..<40).allSatisfy { files.contents("f\($0).bin") == "file \($0)" })
    }
}

/// Counts calls from any thread, and lets a test wait for a count.
private final class Tally: @unchecked Sendable {
    private let condition = ConditionLock()
    private var calls = 0

    var count: Int { condition.withLock { calls } }

    func add() {
        condition.withLock {
            calls += 1
            condition.broadcast()
        }
    }

    func wait(for count: Int) {
        condition.withLock { while calls < count { condition.wait() } }
    }
}

/// A flag set once, read from any thread (under the gate's lock in the test above).
private final class Flag: @unchecked Sendable {
    private(set) var isSet = false
    func set() { isSet = true }
}
