/// Where one run of syncagent reads and writes: the manifest, the state folder, and the lock
/// and control socket derived from it. The policy lives here, so every command and the agent
/// agree on it; the command line only passes on what the user gave.
public struct Locations: Sendable, Equatable {
    public var directories: XDGDirectories
    /// As the user gave it (relative to the working folder) or the absolute default; errors
    /// name it the same way.
    public var manifest: String
    /// Whether ``manifest`` is the default one, which is created on first run.
    public var manifestIsDefault: Bool
    /// Absolute.
    public var stateDirectory: String
    /// Whether ``stateDirectory`` is the default one.
    public var stateIsDefault: Bool
    /// `$XDG_RUNTIME_DIR`, where the session keeps sockets; `nil` when unset or relative.
    public var runtimeDirectory: String?

    /// The locations for `--manifest` and `--state-dir` as given (`nil`: the XDG defaults).
    ///
    /// `resolveLinks` gives the real path of an existing folder (`realpath(3)`; `nil` when it
    /// does not exist yet). The state folder is kept in that one spelling, so every way of
    /// naming it — relative, with `..`, through a symbolic link, or the default written out —
    /// finds the same agent: the socket's name is derived from it.
    public init(
        manifest: String?, stateDirectory: String?, environment: [String: String], workingDirectory: String,
        resolveLinks: (String) -> String? = { _ in nil }, readFile: (String) -> String?
    ) {
        let directories = XDGDirectories(environment: environment, readFile: readFile)
        func canonical(_ path: String) -> String {
            let normal = normalizedPath(path.hasPrefix("/") ? path : workingDirectory + "/" + path)
            return resolveLinks(normal) ?? normal
        }
        let defaultState = canonical(directories.state)
        self.directories = directories
        self.manifest = manifest ?? directories.manifest
        self.manifestIsDefault = manifest == nil
        self.stateDirectory = stateDirectory.map(canonical) ?? defaultState
        self.stateIsDefault = self.stateDirectory == defaultState
        self.runtimeDirectory = environment["XDG_RUNTIME_DIR"].flatMap { $0.hasPrefix("/") ? $0 : nil }
    }

    /// The lock that keeps two agents (or an agent and `--once`) from working on one state and
    /// its files at once.
    public var lockPath: String { stateDirectory + "/agent.lock" }

    /// Where the agent working on ``stateDirectory`` listens: `$XDG_RUNTIME_DIR/syncagent/
    /// control.sock` for the default state, a name derived from the state folder for another
    /// (so agents on different states, as in tests, never share a socket), and the state
    /// folder itself when the session has no runtime folder.
    public var controlSocketPath: String {
        guard let runtimeDirectory else { return stateDirectory + "/control.sock" }
        let name = stateIsDefault ? "control.sock" : "control-\(fnv1a(stateDirectory)).sock"
        return runtimeDirectory + "/syncagent/" + name
    }
}

/// An absolute path without empty, `.` and `..` components or a trailing slash; `..` is taken
/// lexically (a link's target is `resolveLinks`' business).
func normalizedPath(_ path: String) -> String {
    var kept: [Substring] = []
    for component in path.split(separator: "/") {
        switch component {
        case ".": continue
        case "..": _ = kept.popLast()
        default: kept.append(component)
        }
    }
    return "/" + kept.joined(separator: "/")
}

/// A short, stable hex digest of a string (64-bit FNV-1a), for file names.
private func fnv1a(_ text: String) -> String {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in text.utf8 {
        hash ^= UInt64(byte)
        hash = hash &* 0x100_0000_01b3
    }
    let hex = String(hash, radix: 16)
    return String(repeating: "0", count: 16 - hex.count) + hex
}
