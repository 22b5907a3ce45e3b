import FoundationEssentials
import Glibc

/// The manifest a new user starts with: copied into place on first run, never over a
/// manifest that exists.
public enum DefaultManifest {
    /// Copies `template` to `path` when no file is at `path`, creating folders; returns
    /// whether it did. The copy appears whole or not at all (written aside, then linked).
    public static func install(at path: String, from template: String) throws(DefaultManifestError) -> Bool {
        guard access(path, F_OK) != 0 else { return false }
        let folder = splitPath(path).folder
        if let reason = createFolders(folder, mode: 0o755) {
            throw DefaultManifestError(message: "cannot create the folder \(folder): \(reason)")
        }
        guard let contents = FileManager.default.contents(atPath: template) else {
            throw DefaultManifestError(message: "cannot read the default manifest \(template): \(systemReason())")
        }
        let temporary = folder + "/.manifest.yaml.new"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw DefaultManifestError(message: "cannot write in \(folder): \(systemReason())")
        }
        defer { unlink(temporary) }
        let failure = writeAll(descriptor, contents) ?? (fsync(descriptor) == 0 ? nil : errno)
        close(descriptor)
        if let failure {
            throw DefaultManifestError(message: "cannot write \(temporary): \(systemReason(failure))")
        }
        // link(2) fails if a manifest appeared meanwhile, so a user's file is never replaced.
        guard link(temporary, path) == 0 else {
            if errno == EEXIST { return false }
            throw DefaultManifestError(message: "cannot create \(path): \(systemReason())")
        }
        return true
    }
}

/// Why the default manifest could not be put in place.
public struct DefaultManifestError: Error, Sendable {
    /// What went wrong, naming the path: "cannot create the folder …: permission denied".
    public var message: String
}

extension DefaultManifest {
    /// The default manifest that ships with this build: beside an installed binary
    /// (`/usr/bin` → `/usr/share/syncagent/`), else in the source tree it was built from.
    public static func shipped() -> String? {
        let executable = symbolicLinkTarget("/proc/self/exe") ?? "/usr/bin/syncagent"
        let installed = splitPath(splitPath(executable).folder).folder + "/share/syncagent/manifest.yaml"
        // Sources/SyncAgentKit/Manifest/ → the checkout's config/.
        var sourceTree = "\(#filePath)"
        for _ in 0..<4 { sourceTree = splitPath(sourceTree).folder }
        let shippedInTree = sourceTree + "/config/manifest.yaml"
        return [installed, shippedInTree].first { access($0, R_OK) == 0 }
    }
}
