import Foundation
import Glibc
import Testing
import TestSupport
@testable import SyncAgentKit

/// The watcher wakes the agent for every way an editor or a user changes the manifest, and
/// tells other files in its folder apart.
struct ManifestWatcherTests {
    let folder: TemporaryDirectory
    let manifest: String

    init() throws {
        folder = try TemporaryDirectory(prefix: "watcher")
        manifest = folder.appending("manifest.yaml")
        try write("files: []\n", to: manifest)
    }

    /// Writes `text` into `path` through one descriptor, as an editor saving in place does:
    /// truncate, write, close.
    func write(_ text: String, to path: String) throws {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw TestSupportError("cannot open \(path): \(String(cString: strerror(errno)))") }
        defer { close(descriptor) }
        let bytes = Array(text.utf8)
        guard Glibc.write(descriptor, bytes, bytes.count) == bytes.count else {
            throw TestSupportError("cannot write \(path): \(String(cString: strerror(errno)))")
        }
    }

    /// Whether the watcher's descriptor is readable within `limit`; generous limits only, the
    /// event is already queued when the change returns.
    func readable(_ watcher: ManifestWatcher, within limit: Duration = .seconds(10)) -> Bool {
        var entry = pollfd(fd: watcher.descriptor, events: Int16(POLLIN), revents: 0)
        let milliseconds = Int32(limit.components.seconds * 1000 + limit.components.attoseconds / 1_000_000_000_000_000)
        return poll(&entry, 1, milliseconds) == 1
    }

    /// Waits for the change `body` makes to reach the watcher, then reports whether the
    /// watcher says it concerns the manifest. Afterwards nothing is left to read.
    func noticed(_ watcher: ManifestWatcher, _ body: () throws -> Void) throws -> Bool {
        try body()
        try #require(readable(watcher), "the change woke nothing")
        let changed = watcher.manifestChanged()
        #expect(!readable(watcher, within: .zero), "events were left unread")
        return changed
    }

    @Test func aQuietFolderLeavesTheDescriptorUnreadable() throws {
        let watcher = try ManifestWatcher(manifestPath: manifest)
        #expect(!readable(watcher, within: .zero))
        #expect(!watcher.manifestChanged())
    }

    @Test func aSaveInPlaceIsNoticed() throws {
        let watcher = try ManifestWatcher(manifestPath: manifest)
        #expect(try noticed(watcher) { try write("files: [a]\n", to: manifest) })
    }

    @Test func aSaveByRenameOverTheManifestIsNoticed() throws {
        let watcher = try ManifestWatcher(manifestPath: manifest)
        #expect(try noticed(watcher) {
            let aside = folder.appending(".manifest.yaml.tmp")
            try write("files: [b]\n", to: aside)
            try #require(rename(aside, manifest) == 0)
        })
    }

    @Test func deletionAndRecreationAreEachNoticed() throws {
        let watcher = try ManifestWatcher(manifestPath: manifest)
        #expect(try noticed(watcher) { try #require(unlink(manifest) == 0) })
        #expect(try noticed(watcher) { try write("files: [c]\n", to: manifest) })
    }

    @Test func movingTheManifestAwayIsNoticed() throws {
        let watcher = try ManifestWatcher(manifestPath: manifest)
        #expect(try noticed(watcher) { try #require(rename(manifest, folder.appending("manifest.yaml.bak")) == 0) })
    }

    @Test func otherFilesInTheFolderAreNotTheManifest() throws {
        let watcher = try ManifestWatcher(manifestPath: manifest)
        // Names an editor writes next to the file: a backup, a swap file, a longer name.
        #expect(try !noticed(watcher) { try write("x", to: folder.appending("manifest.yaml~")) })
        #expect(try !noticed(watcher) { try write("x", to: folder.appending(".manifest.yaml.swp")) })
        #expect(try !noticed(watcher) { try write("x", to: folder.appending("manifest.yam")) })
        #expect(try !noticed(watcher) { try write("x", to: folder.appending("other.yaml")) })
        #expect(try !noticed(watcher) { try #require(unlink(folder.appending("other.yaml")) == 0) })
    }

    @Test func aSaveBehindManyOtherEventsIsNoticed() throws {
        let watcher = try ManifestWatcher(manifestPath: manifest)
        // 600 files make about 40 KB of events, more than one read of the watcher takes.
        #expect(try noticed(watcher) {
            for index in 0..<600 { try write("x", to: folder.appending("other-\(index).yaml")) }
            try write("files: [d]\n", to: manifest)
        })
    }

    @Test func aFolderThatDoesNotExistIsAClearError() throws {
        let missing = folder.appending("missing")
        do {
            _ = try ManifestWatcher(manifestPath: missing + "/manifest.yaml")
            Issue.record("a watcher was made for a folder that does not exist")
        } catch {
            #expect(error == AgentError(.cannotWatch, "cannot watch \(missing) for edits: no such file or directory"))
        }
    }
}
