import Foundation
import Testing
import TestSupport
@testable import SyncAgentKit

/// ``CommitGroup`` on real files: when a group is due, and what putting it in place does on disk.
struct CommitGroupTests {
    let folder: TemporaryDirectory

    init() throws {
        folder = try TemporaryDirectory(prefix: "commit-group")
    }

    /// Writes `contents` to the partial of `name` and stages it, as a download does: a small
    /// file with no name, or with `named` (its length unknown) the hidden `.NAME.part`.
    func staged(_ name: String, _ contents: String, id: Int, named: Bool = false, servedAs served: String? = nil) throws -> CommitGroup.Member {
        let destination = folder.appending(name)
        let length = named ? nil : Int64(contents.utf8.count)
        let part = try PartFile(destination: destination, root: folder.path, keepingFirst: 0, expectedLength: length)
        #expect(part.isUnnamed == !named)
        var failure: TransferFailure?
        Array(contents.utf8).withUnsafeBytes { bytes in
            do throws(TransferFailure) { try part.write(bytes) } catch { failure = error }
        }
        if let failure { throw failure }
        let file = try part.stage(modificationTime: 784_111_777, servedAt: served.map(folder.appending))
        return CommitGroup.Member(id: id, file: file, size: Int64(contents.utf8.count), validators: Validators(etag: "\"\(id)\""))
    }

    /// A name the server chose is taken only when free: it never replaces a file, and the
    /// file goes to the request's own name instead — small (unnamed) or large (named) alike.
    @Test(arguments: [false, true])
    func aServersNameNeverReplacesAFile(named: Bool) throws {
        let free = try staged("download.php", "first", id: 0, named: named, servedAs: "report.pdf")
        let clash = try staged("other.php", "second", id: 1, named: named, servedAs: "notes.txt")
        try "the user's own".write(toFile: folder.appending("notes.txt"), atomically: true, encoding: .utf8)
        let results = CommitGroup.putInPlace([free, clash])
        #expect(results.allSatisfy { $0.failure == nil })
        #expect(results.map(\.member.file.destination) == [folder.appending("report.pdf"), folder.appending("other.php")])
        #expect(contents("report.pdf") == "first")
        #expect(contents("download.php") == nil)
        #expect(contents("notes.txt") == "the user's own")
        #expect(contents("other.php") == "second")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == ["notes.txt", "other.php", "report.pdf"], "no partial left")
    }

    func contents(_ name: String) -> String? {
        FileManager.default.contents(atPath: folder.appending(name)).map { String(decoding: $0, as: UTF8.self) }
    }

    /// One by one with fsync, and with one syncfs for more than a few; files with no name and
    /// named partials alike.
    @Test(arguments: [1, FileSystem.mostFlushedOneByOne, FileSystem.mostFlushedOneByOne + 1, 50])
    func putsEveryMemberInPlaceWithItsDateAndRemovesThePartials(count: Int) throws {
        let members = try (0..<count).map { try staged("sub/f\($0).bin", "file \($0)", id: $0, named: $0.isMultiple(of: 3)) }
        #expect(contents("sub/f0.bin") == nil, "nothing is in place before the group is")
        let entries = try FileManager.default.contentsOfDirectory(atPath: folder.appending("sub"))
        #expect(Set(entries) == Set((0..<count).filter { $0.isMultiple(of: 3) }.map { ".f\($0).bin.part" }),
                "a small new file has no name until it is in place")
        let results = CommitGroup.putInPlace(members)
        #expect(results.map(\.member.id) == Array(0..<count))
        #expect(results.allSatisfy { $0.failure == nil })
        for index in 0..<count {
            #expect(contents("sub/f\(index).bin") == "file \(index)")
            #expect(!FileManager.default.fileExists(atPath: folder.appending("sub/.f\(index).bin.part")))
            let attributes = try FileManager.default.attributesOfItem(atPath: folder.appending("sub/f\(index).bin"))
            #expect((attributes[.modificationDate] as? Date)?.timeIntervalSince1970 == 784_111_777)
        }
    }

    /// Issue 11, item 1: what goes in place is the file that was written and checked, never
    /// whatever another program, or another download, put at its partial's name since.
    @Test func aPartialReplacedAfterItWasCheckedIsNotPutInPlace() throws {
        try "old".write(toFile: folder.appending("x.bin"), atomically: false, encoding: .utf8)
        let member = try staged("x.bin", "checked", id: 1, named: true)
        try "unchecked".write(toFile: folder.appending("planted"), atomically: false, encoding: .utf8)
        #expect(rename(folder.appending("planted"), folder.appending(".x.bin.part")) == 0)

        let failure = CommitGroup.putInPlace([member]).first?.failure
        #expect(failure == TransferFailure(.disk, "the partial download \(folder.appending(".x.bin.part")) was replaced or deleted by another program before it could be put in place; \(folder.appending("x.bin")) was left as it was"))
        #expect(contents("x.bin") == "old")
        #expect(contents(".x.bin.part") == "unchecked", "another program's file is left alone")
    }

    @Test func aDeletedPartialIsNotPutInPlace() throws {
        let member = try staged("gone.bin", "checked", id: 1, named: true)
        #expect(unlink(folder.appending(".gone.bin.part")) == 0)
        #expect(CommitGroup.putInPlace([member]).first?.failure?.code == .disk)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
    }

    @Test(arguments: [false, true])
    func replacesTheOldVersionInOneStep(named: Bool) throws {
        try "old".write(toFile: folder.appending("guide.pdf"), atomically: false, encoding: .utf8)
        let member = try staged("guide.pdf", "new", id: 7, named: named)
        #expect(contents("guide.pdf") == "old")
        #expect(CommitGroup.putInPlace([member]).first?.failure == nil)
        #expect(contents("guide.pdf") == "new")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["guide.pdf"], "no name left behind")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["guide.pdf"])
    }

    @Test func aFileWithNoNameNotPutInPlaceLeavesNothing() throws {
        let member = try staged("gone.bin", "never named", id: 0)
        member.file.close()
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
    }

    @Test func aMemberThatCannotBePutInPlaceFailsAloneAndLeavesNoPartial() throws {
        // A folder where the file should go: rename(2) cannot replace it with a file.
        try FileManager.default.createDirectory(atPath: folder.appending("b.bin/inside"), withIntermediateDirectories: true)
        let results = CommitGroup.putInPlace([try staged("a.bin", "a", id: 0), try staged("b.bin", "b", id: 1), try staged("c.bin", "c", id: 2, named: true)])
        #expect(results[0].failure == nil)
        #expect(results[1].failure?.code == .disk)
        #expect(results[1].failure?.message == "cannot put in place \(folder.appending("b.bin")): is a directory")
        #expect(results[2].failure == nil)
        #expect(contents("a.bin") == "a" && contents("c.bin") == "c")
        #expect(Set(try FileManager.default.contentsOfDirectory(atPath: folder.path)) == ["a.bin", "b.bin", "c.bin"])
    }

    @Test func waitsForOthersOnlyWhileTheyRunAtMostTheLongestWaitAndUntilFull() throws {
        var group = CommitGroup()
        let start = ContinuousClock.now
        #expect(!group.isDue(at: start, moreComing: false), "an empty group is never due")
        #expect(group.deadline == nil)
        group.add(try staged("a.bin", "a", id: 0), at: start)
        group.add(try staged("b.bin", "b", id: 1), at: start + .milliseconds(50))
        #expect(group.deadline == start + CommitGroup.longestWait, "the oldest member sets the deadline")
        #expect(group.isDue(at: start, moreComing: false))
        #expect(!group.isDue(at: start + CommitGroup.longestWait - .milliseconds(1), moreComing: true))
        #expect(group.isDue(at: start + CommitGroup.longestWait, moreComing: true))
        #expect(Set(group.ids) == [0, 1])
        let taken = group.takeMembers()
        #expect(taken.map(\.id) == [0, 1] && group.isEmpty && group.deadline == nil)
        _ = CommitGroup.putInPlace(taken)
    }

    /// While the commit thread puts a group in place the next one gathers, and a full one
    /// waits for it: never more than two groups' files open at once.
    @Test func gathersWhileTheCommitThreadIsBusyAndAFullGroupWaitsForIt() throws {
        var group = CommitGroup()
        let start = ContinuousClock.now
        let late = start + CommitGroup.longestWait
        #expect(group.next(at: late, moreComing: true, committerBusy: false) == .gather, "nothing to hand over")
        group.add(try staged("a.bin", "a", id: 0), at: start)
        #expect(group.next(at: start, moreComing: true, committerBusy: false) == .gather, "not due yet")
        #expect(group.next(at: late, moreComing: true, committerBusy: false) == .handOver)
        #expect(group.next(at: late, moreComing: true, committerBusy: true) == .gather, "due, but an earlier group is being put in place")
        #expect(group.next(at: start, moreComing: false, committerBusy: true) == .handOver, "nothing more is coming: it queues behind")
        for id in 1..<CommitGroup.largest { group.add(try staged("f\(id).bin", "f", id: id), at: start) }
        #expect(group.next(at: start, moreComing: true, committerBusy: true) == .waitThenHandOver)
        #expect(group.next(at: start, moreComing: true, committerBusy: false) == .handOver)
        _ = CommitGroup.putInPlace(group.takeMembers())
    }

    @Test func aFullGroupIsDueAtOnce() throws {
        var group = CommitGroup()
        let member = try staged("a.bin", "a", id: 0)
        for _ in 0..<CommitGroup.largest - 1 { group.add(member, at: .now) }
        #expect(!group.isDue(at: .now, moreComing: true))
        group.add(member, at: .now)
        #expect(group.isDue(at: .now, moreComing: true))
    }
}
