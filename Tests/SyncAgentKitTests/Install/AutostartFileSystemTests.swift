import Foundation
import Testing
import TestSupport
@testable import SyncAgentKit

/// Writing whole files, removing them, and telling a file from a link, on a real folder.
struct AutostartFileSystemTests {
    let folder: TemporaryDirectory

    init() throws {
        folder = try TemporaryDirectory(prefix: "autostart-fs")
    }

    @Test func writingCreatesTheFoldersAndLeavesOnlyTheFile() throws {
        let path = folder.appending("a/b/syncagent.service")
        try AutostartFileSystem.writeAtomically("one\n", to: path)
        #expect(try AutostartFileSystem.entry(at: path) == .file("one\n"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.appending("a/b")) == ["syncagent.service"])
        let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
        #expect(mode == 0o644)
    }

    @Test func writingReplacesAFileWithANewOne() throws {
        let path = folder.appending("syncagent.service")
        try AutostartFileSystem.writeAtomically("one\n", to: path)
        let before = try FileManager.default.attributesOfItem(atPath: path)[.systemFileNumber] as? Int
        try AutostartFileSystem.writeAtomically("two\n", to: path)
        let after = try FileManager.default.attributesOfItem(atPath: path)[.systemFileNumber] as? Int
        #expect(try AutostartFileSystem.entry(at: path) == .file("two\n"))
        // A new inode: the old file was renamed over, never truncated and rewritten.
        #expect(before != after)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["syncagent.service"])
    }

    @Test func aLinkIsALinkEvenWhenItPointsNowhere() throws {
        let path = folder.appending("syncagent.service")
        try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: folder.appending("missing"))
        #expect(try AutostartFileSystem.entry(at: path) == .symbolicLink)
        #expect(AutostartFileSystem.linkTarget(path) == folder.appending("missing"))
        #expect(try AutostartFileSystem.entry(at: folder.appending("other")) == .nothing)
    }

    @Test func removingSaysWhetherThereWasAFile() throws {
        let path = folder.appending("syncagent.desktop")
        try AutostartFileSystem.writeAtomically("x\n", to: path)
        #expect(try AutostartFileSystem.remove(path))
        #expect(try AutostartFileSystem.remove(path) == false)
        #expect(try AutostartFileSystem.entry(at: path) == .nothing)
    }

    @Test func aFolderThatIsAFileIsReportedWithItsPath() throws {
        try "not a folder".write(toFile: folder.appending("config"), atomically: true, encoding: .utf8)
        do {
            try AutostartFileSystem.writeAtomically("x\n", to: folder.appending("config/autostart/syncagent.desktop"))
            Issue.record("wrote under a regular file")
        } catch {
            #expect(error.code == .fileSystem)
            #expect(error.message.contains(folder.appending("config/autostart")), "\(error.message)")
        }
    }
}
