import Foundation
import Testing
import TestSupport
@testable import SyncAgentKit

/// The destination's disk: too small, filling up, read-only, missing, or a symlink pointing
/// elsewhere. In every case the old version stays untouched and the message says why.
@Suite(.serialized)
struct DiskFaultTests {
    let server: FaultServer
    let folder: TemporaryDirectory

    init() throws {
        server = try FaultServer()
        folder = try TemporaryDirectory(prefix: "disk")
    }

    func run(_ path: String, to destination: String) -> FaultRun {
        FaultRun([TransferRequest(id: 0, url: server.url(path), destination: destination)])
    }

    @Test func aFileLargerThanTheFreeSpaceIsRefusedBeforeWriting() throws {
        var huge = FaultResponse()
        huge.contentLength = 1 << 50
        try server.serve("/huge.iso", randomData(1_000), responses: [huge])
        let destination = folder.appending("huge.iso")
        try Data("old".utf8).write(to: URL(fileURLWithPath: destination))
        // Below max_size, so that the free space is what refuses it.
        let run = FaultRun([TransferRequest(id: 0, url: server.url("/huge.iso"), destination: destination, maximumSize: .max)])

        let failure = try #require(run.failure())
        #expect(failure.code == .disk)
        #expect(failure.message.hasPrefix("not enough space for \(destination): 1126 TB needed, "))
        #expect(failure.message.hasSuffix(" free (`limits.min_free`)"))
        #expect(contents(destination) == Data("old".utf8))
        #expect(!FileManager.default.fileExists(atPath: partialPath(destination)))
        #expect(server.requests(for: "/huge.iso").count == 1)
    }

    @Test(.enabled(if: ScratchMount.isAvailable, Comment(rawValue: ScratchMount.unavailableReason)))
    func aFileLargerThanASmallDiskIsRefusedBeforeWriting() throws {
        let disk = try ScratchMount(bytes: 2 << 20)
        try server.serve("/big.pdf", randomData(3 << 20))
        let destination = disk.appending("big.pdf")
        let run = run("/big.pdf", to: destination)
        let failure = try #require(run.failure())
        #expect(failure.code == .disk)
        #expect(failure.message.hasPrefix("not enough space for \(destination): 3.1 MB needed, "))
        #expect(try FileManager.default.contentsOfDirectory(atPath: disk.path).isEmpty)
    }

    @Test(.enabled(if: ScratchMount.isAvailable, Comment(rawValue: ScratchMount.unavailableReason)))
    func aDiskThatFillsUpMidWriteStopsBeforeItIsFullAndKeepsTheOldVersion() throws {
        let disk = try ScratchMount(bytes: 2 << 20)
        let old = randomData(600_000)
        let destination = disk.appending("grows.pdf")
        try old.write(to: URL(fileURLWithPath: destination))
        // Without a Content-Length nothing warns in advance: the disk fills up mid-body.
        var unannounced = FaultResponse()
        unannounced.withoutLength = true
        try server.serve("/grows.pdf", randomData(3 << 20), responses: [unannounced])
        let run = run("/grows.pdf", to: destination)

        let failure = try #require(run.failure())
        #expect(failure.code == .disk)
        // The margin of a 2 MiB disk is 5% of it: the download stops before the disk is full.
        #expect(failure.message.hasPrefix("stopped writing \(destination) after "))
        #expect(failure.message.hasSuffix(", and syncagent leaves at least 105 KB free (`limits.min_free`)"))
        #expect(contents(destination) == old)
        #expect(!FileManager.default.fileExists(atPath: partialPath(destination)))
        // The deleted partial's space comes back when its last descriptor closes; a process
        // another test forks at that moment holds a copy of every descriptor until it execs.
        let deadline = ContinuousClock.now + .seconds(5)
        while disk.availableBytes <= 1 << 20, ContinuousClock.now < deadline { usleep(10_000) }
        #expect(disk.availableBytes > 1 << 20)
    }

    @Test(.enabled(if: ScratchMount.isAvailable, Comment(rawValue: ScratchMount.unavailableReason)))
    func minFreeRefusesAFileThatWouldCrossItBeforeWritingAndSaysWhatIsNeededAndFree() throws {
        let disk = try ScratchMount(bytes: 4 << 20)
        // Small enough that the default margin (5% of 4 MiB) lets it in; min_free does not.
        try server.serve("/report.pdf", randomData(500_000))
        let destination = disk.appending("report.pdf")
        let free = disk.availableBytes
        let limits = Manifest.Limits(concurrent: 1, perHost: 1, minFree: .bytes(Int64(free) - 300_000))
        let run = FaultRun([TransferRequest(id: 0, url: server.url("/report.pdf"), destination: destination)], limits: limits)

        let failure = try #require(run.failure())
        #expect(failure.code == .disk)
        #expect(failure.message == "not enough space for \(destination): 500 KB needed, \(formatByteCount(Int64(free))) free, "
            + "and syncagent leaves \(formatByteCount(Int64(free) - 300_000)) free (`limits.min_free`)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: disk.path).isEmpty)
        #expect(server.requests(for: "/report.pdf").count == 1)

        let roomy = Manifest.Limits(concurrent: 1, perHost: 1, minFree: .percent(50))
        let fits = FaultRun([TransferRequest(id: 0, url: server.url("/report.pdf"), destination: destination)], limits: roomy)
        #expect(fits.outcome() == .downloaded(bytes: 500_000))
    }

    @Test(.enabled(if: ScratchMount.isAvailable, Comment(rawValue: ScratchMount.unavailableReason)))
    func minFreeStopsABodyOfNoLengthBeforeItCrossesTheMargin() throws {
        let disk = try ScratchMount(bytes: 4 << 20)
        var unannounced = FaultResponse()
        unannounced.withoutLength = true
        try server.serve("/stream.pdf", randomData(3 << 20), responses: [unannounced])
        let destination = disk.appending("stream.pdf")
        let limits = Manifest.Limits(concurrent: 1, perHost: 1, minFree: .bytes(2_000_000))
        let run = FaultRun([TransferRequest(id: 0, url: server.url("/stream.pdf"), destination: destination)], attempts: 1, limits: limits)

        let failure = try #require(run.failure())
        #expect(failure.code == .disk)
        #expect(failure.message.hasPrefix("stopped writing \(destination) after "))
        #expect(failure.message.hasSuffix(", and syncagent leaves at least 2.0 MB free (`limits.min_free`)"))
        #expect(!FileManager.default.fileExists(atPath: destination))
    }

    @Test func aMissingDestinationFolderIsCreated() throws {
        let data = randomData(2_000)
        try server.serve("/deep.pdf", data)
        let destination = folder.appending("not/yet/there/deep.pdf")
        #expect(run("/deep.pdf", to: destination).outcome() == .downloaded(bytes: 2_000))
        #expect(contents(destination) == data)
    }

    @Test func aFolderWhereAFileShouldBeIsAClearError() throws {
        try server.serve("/blocked.pdf", randomData(2_000))
        let blocker = folder.appending("blocked")
        try Data("a file".utf8).write(to: URL(fileURLWithPath: blocker))
        let failure = try #require(run("/blocked.pdf", to: blocker + "/blocked.pdf").failure())
        #expect(failure == TransferFailure(.disk, "cannot create the folder \(blocker): a file of that name is in the way"))
    }

    @Test func aFolderThatCannotBeWrittenIsAClearError() throws {
        let data = randomData(2_000)
        try server.serve("/readonly.pdf", data)
        let unwritable = try UnwritableFolder(in: folder)
        defer { unwritable.remove() }
        let readOnly = unwritable.path
        let failure = try #require(run("/readonly.pdf", to: readOnly + "/readonly.pdf").failure())
        #expect(failure.code == .disk)
        #expect(failure.message.hasPrefix("cannot write in the folder \(readOnly): "))
        #expect(failure.message.hasSuffix(unwritable.reason))
    }

    @Test func aDestinationThatIsASymlinkIsReplacedNotFollowed() throws {
        let outside = try TemporaryDirectory(prefix: "outside")
        let target = outside.appending("precious.pdf")
        try Data("precious".utf8).write(to: URL(fileURLWithPath: target))
        let destination = folder.appending("linked.pdf")
        try FileManager.default.createSymbolicLink(atPath: destination, withDestinationPath: target)
        let data = randomData(3_000)
        try server.serve("/linked.pdf", data)

        #expect(run("/linked.pdf", to: destination).outcome() == .downloaded(bytes: 3_000))
        #expect(contents(target) == Data("precious".utf8))
        #expect(try FileManager.default.attributesOfItem(atPath: destination)[.type] as? FileAttributeType == .typeRegular)
        #expect(contents(destination) == data)
    }

    @Test func aFolderInsideTheDestinationThatIsASymlinkIsNotFollowedOut() throws {
        let outside = try TemporaryDirectory(prefix: "outside")
        let root = folder.appending("root")
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: root + "/sub", withDestinationPath: outside.path)
        try server.serve("/escape.pdf", randomData(2_000))
        let run = FaultRun([TransferRequest(id: 0, url: server.url("/escape.pdf"), destination: root + "/sub/escape.pdf", root: root)])

        let failure = try #require(run.failure())
        #expect(failure.code == .disk)
        #expect(failure.message == "\(root)/sub is a symbolic link; syncagent does not follow links out of the destination folder")
        #expect(try FileManager.default.contentsOfDirectory(atPath: outside.path).isEmpty)
    }

    @Test func theDestinationFolderItselfMayBeALink() throws {
        let real = try TemporaryDirectory(prefix: "real")
        let root = folder.appending("linked-root")
        try FileManager.default.createSymbolicLink(atPath: root, withDestinationPath: real.path)
        let data = randomData(2_000)
        try server.serve("/inside.pdf", data)
        let run = FaultRun([TransferRequest(id: 0, url: server.url("/inside.pdf"), destination: root + "/deeper/inside.pdf", root: root)])
        #expect(run.outcome() == .downloaded(bytes: 2_000))
        #expect(contents(real.appending("deeper/inside.pdf")) == data)
    }

    @Test func aPartialThatIsASymlinkIsNotFollowed() throws {
        let outside = try TemporaryDirectory(prefix: "outside")
        let target = outside.appending("precious")
        try Data("precious".utf8).write(to: URL(fileURLWithPath: target))
        let destination = folder.appending("trap.pdf")
        try FileManager.default.createSymbolicLink(atPath: partialPath(destination), withDestinationPath: target)
        let data = randomData(3_000)
        try server.serve("/trap.pdf", data)

        #expect(run("/trap.pdf", to: destination).outcome() == .downloaded(bytes: 3_000))
        #expect(contents(target) == Data("precious".utf8))
        #expect(contents(destination) == data)
    }

    @Test func aSymlinkIsNotTakenForTheFileWhenAskingWhatIsOnDisk() throws {
        let outside = try TemporaryDirectory(prefix: "outside")
        let target = outside.appending("other.pdf")
        try Data("other".utf8).write(to: URL(fileURLWithPath: target))
        let destination = folder.appending("pointer.pdf")
        try FileManager.default.createSymbolicLink(atPath: destination, withDestinationPath: target)
        #expect(FileSystem.regularFileInfo(destination) == nil)
        #expect(FileSystem.regularFileInfo(target)?.size == 5)
    }

    @Test func aNameAsLongAsLinuxAllowsStillHasRoomForItsPartial() throws {
        let name = String(repeating: "é", count: 125) + "s.pdf"
        #expect(name.utf8.count == 255)
        let data = randomData(300_000)
        try server.serve("/long.pdf", data, responses: [.cut(after: 100_000), .normal])
        let destination = folder.appending(name)
        let run = run("/long.pdf", to: destination)
        #expect(run.outcome() == .downloaded(bytes: 300_000))
        #expect(contents(destination) == data)
        #expect(rangeStart(try #require(server.requests(for: "/long.pdf").last)) == 100_000)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == [name])
    }
}
