import Foundation
import Glibc
import Testing
import TestSupport
@testable import SyncAgentKit

/// The watcher wakes the agent for every way an editor or a user changes the manifest, and
/// tells other files in its folder apart.
///
/// A close event can come after the `close` that causes it: a child that another test spawns
/// at that moment holds a copy of the descriptor until its `exec`, and the file's last close
/// is then the child's. So tests wait for the manifest's event rather than expect it at
/// once, and files whose content does not matter are made with `mknod`, which opens nothing.
struct ManifestWatcherTests {
    let folder: TemporaryDirectory
    let manifest: String

    init() throws {
        folder = try TemporaryDirectory(prefix: "watcher")
        manifest = folder.appending("manifest.yaml")
        try makeEmptyFile(manifest)
    }

    /// Creates an empty file without opening it: its only event is `IN_CREATE`, queued
    /// before `mknod` returns.
    func makeEmptyFile(_ path: String) throws {
        guard mknod(path, S_IFREG | 0o644, 0) == 0 else {
            throw TestSupportError("cannot create \(path): \(String(cString: strerror(errno)))")
        }
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

    /// Whether the watcher's descriptor is readable within `milliseconds`.
    func readable(_ watcher: ManifestWatcher, within milliseconds: Int32 = 30_000) -> Bool {
        var entry = pollfd(fd: watcher.descriptor, events: Int16(POLLIN), revents: 0)
        return poll(&entry, 1, milliseconds) == 1
    }

    /// Makes the change and reads the watcher each time it wakes until it says the manifest
    /// changed; false when it has not said so within the (generous) limit.
    func noticed(_ watcher: ManifestWatcher, _ change: () throws -> Void) throws -> Bool {
        try change()
        let deadline = ContinuousClock.now + .seconds(30)
        while ContinuousClock.now < deadline {
            guard readable(watcher) else { return false }
            if watcher.manifestChanged() { return true }
        }
        return false
    }

    /// Makes a change that does not touch the manifest, waits until the watcher wakes for it,
    /// and returns what the watcher says. The manifest itself never changes in such a test,
    /// so no late event can concern it.
    func wakesFor(_ watcher: ManifestWatcher, _ change: () throws -> Void) throws -> Bool {
        try change()
        try #require(readable(watcher), "the change woke nothing")
        return watcher.manifestChanged()
    }

    @Test func aQuietFolderLeavesTheDescriptorUnreadable() throws {
        let watcher = try ManifestWatcher(manifestPath: manifest)
        #expect(!readable(watcher, within: 0))
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
        // Names an editor writes next to the file: a backup, a swap file, a shorter name.
        #expect(try !wakesFor(watcher) { try write("x", to: folder.appending("manifest.yaml~")) })
        #expect(try !wakesFor(watcher) { try write("x", to: folder.appending(".manifest.yaml.swp")) })
        #expect(try !wakesFor(watcher) { try write("x", to: folder.appending("manifest.yam")) })
        #expect(try !wakesFor(watcher) { try write("x", to: folder.appending("other.yaml")) })
        #expect(try !wakesFor(watcher) { try #require(unlink(folder.appending("other.yaml")) == 0) })
    }

    @Test func aSaveBehindManyOtherEventsIsNoticedInOneCall() throws {
        let watcher = try ManifestWatcher(manifestPath: manifest)
        // 1000 creations queue 32 KB of events, more than one read of the watcher takes, and
        // the rename's event is queued after them before `rename` returns.
        let aside = folder.appending(".manifest.yaml.new")
        try makeEmptyFile(aside)
        for index in 0..<1000 { try makeEmptyFile(folder.appending("other-\(index).yaml")) }
        try #require(rename(aside, manifest) == 0)
        try #require(readable(watcher))
        #expect(watcher.manifestChanged())
    }

    @Test func aFolderThatDoesNotExistIsAClearError() throws {
        let missing = folder.appending("missing")
        errno = 0
        do {
            _ = try ManifestWatcher(manifestPath: missing + "/manifest.yaml")
            Issue.record("a watcher was made for a folder that does not exist")
        } catch {
            // A second close of the inotify descriptor (by the init and again by deinit, which
            // runs because every stored property was set) fails with EBADF; in a process with
            // other threads it can close a descriptor one of them was just given.
            #expect(errno != EBADF, "the watcher's descriptor was closed twice")
            #expect(error == AgentError(.cannotWatch, "cannot watch \(missing) for edits: no such file or directory"))
        }
    }
}
