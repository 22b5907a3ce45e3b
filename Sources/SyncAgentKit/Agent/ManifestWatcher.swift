import Glibc

/// Notices saves of the manifest without polling, through inotify on its folder.
///
/// The folder, not the file, is watched: editors often save by writing a new file and
/// renaming it over the old one, which replaces the inode a file watch would follow. The
/// descriptor goes into the agent's `curl_multi_poll`, so a save wakes the agent at once.
final class ManifestWatcher {
    /// Readable when something happened in the folder.
    let descriptor: Int32
    private let name: String

    init(manifestPath: String) throws(AgentError) {
        let (folder, name) = splitPath(manifestPath)
        self.name = name
        descriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard descriptor >= 0 else {
            throw AgentError(.cannotWatch, "cannot watch \(folder) for edits: \(systemReason())")
        }
        let events = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_CREATE | IN_DELETE | IN_MOVED_FROM)
        guard inotify_add_watch(descriptor, folder, events) >= 0 else {
            // Closed by deinit, which runs when an init with every property set throws; closing
            // here as well could close a number another thread has just been given.
            throw AgentError(.cannotWatch, "cannot watch \(folder) for edits: \(systemReason())")
        }
    }

    deinit {
        close(descriptor)
    }

    /// Reads every pending event; returns whether one of them concerns the manifest.
    func manifestChanged() -> Bool {
        var changed = false
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 16 * 1024, alignment: MemoryLayout<inotify_event>.alignment)
        defer { buffer.deallocate() }
        while true {
            let count = read(descriptor, buffer.baseAddress, buffer.count)
            guard count > 0 else { return changed }
            var offset = 0
            while offset + MemoryLayout<inotify_event>.size <= count {
                let event = buffer.load(fromByteOffset: offset, as: inotify_event.self)
                let nameStart = offset + MemoryLayout<inotify_event>.size
                if event.len > 0 {
                    let nameBytes = UnsafeRawBufferPointer(rebasing: buffer[nameStart..<(nameStart + Int(event.len))])
                    let eventName = String(decoding: nameBytes.prefix { $0 != 0 }, as: UTF8.self)
                    if eventName == name { changed = true }
                }
                offset = nameStart + Int(event.len)
            }
        }
    }
}
