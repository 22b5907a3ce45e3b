import Foundation

/// The manifest a new user starts with: copied into place on first run, never over a
/// manifest that exists.
public enum DefaultManifest {
    /// Copies `template` to `path` when no file is at `path`, creating folders; returns
    /// whether it did. The copy appears whole or not at all (written aside, then renamed).
    public static func install(at path: String, from template: String) throws -> Bool {
        let manager = FileManager.default
        guard !manager.fileExists(atPath: path) else { return false }
        let folder = (path as NSString).deletingLastPathComponent
        try manager.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let contents = try Data(contentsOf: URL(fileURLWithPath: template))
        let temporary = folder + "/.manifest.yaml.new"
        try contents.write(to: URL(fileURLWithPath: temporary))
        // link(2) fails if a manifest appeared meanwhile, so a user's file is never replaced.
        defer { unlink(temporary) }
        guard link(temporary, path) == 0 else {
            if errno == EEXIST { return false }
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path])
        }
        return true
    }
}

extension DefaultManifest {
    /// The default manifest that ships with this build: beside an installed binary
    /// (`/usr/bin` → `/usr/share/syncagent/`), else in the source tree it was built from.
    public static func shipped() -> String? {
        let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        let installed = executable.deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("share/syncagent/manifest.yaml").path
        // Sources/SyncAgentKit/Manifest/ → the checkout's config/.
        var sourceTree = URL(fileURLWithPath: #filePath)
        for _ in 0..<4 { sourceTree.deleteLastPathComponent() }
        let shippedInTree = sourceTree.appendingPathComponent("config/manifest.yaml").path
        return [installed, shippedInTree].first { FileManager.default.isReadableFile(atPath: $0) }
    }
}
