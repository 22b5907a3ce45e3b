/// Where syncagent keeps things, by the XDG Base Directory and user-dirs conventions.
///
/// Pure: the environment and the user-dirs file come in as values, so it is tested without
/// touching the real home folder.
/// - SeeAlso: https://specifications.freedesktop.org/basedir-spec/latest/
public struct XDGDirectories: Sendable, Equatable {
    public var home: String
    /// `$XDG_CONFIG_HOME`, default `~/.config`.
    public var configHome: String
    /// `$XDG_STATE_HOME`, default `~/.local/state`.
    public var stateHome: String
    /// The user's download folder (`XDG_DOWNLOAD_DIR` in `user-dirs.dirs`), default `~/Downloads`.
    public var download: String

    /// - Parameters:
    ///   - environment: the process environment.
    ///   - readFile: reads a file's text, or `nil` (used for `user-dirs.dirs`).
    public init(environment: [String: String], readFile: (String) -> String?) {
        let home = environment["HOME"].flatMap(Self.absolute) ?? "/"
        let homePrefix = home == "/" ? "" : home
        self.home = home
        configHome = environment["XDG_CONFIG_HOME"].flatMap(Self.absolute) ?? homePrefix + "/.config"
        stateHome = environment["XDG_STATE_HOME"].flatMap(Self.absolute) ?? homePrefix + "/.local/state"
        let userDirs = readFile(configHome + "/user-dirs.dirs").flatMap { Self.downloadEntry(in: $0, home: home) }
        download = userDirs ?? homePrefix + "/Downloads"
    }

    /// `~/.config/syncagent/manifest.yaml`.
    public var manifest: String { configHome + "/syncagent/manifest.yaml" }
    /// `~/.local/state/syncagent`.
    public var state: String { stateHome + "/syncagent" }
    /// Where files go when the manifest names no `destination`.
    public var defaultDestination: String { download + "/syncagent" }

    /// The spec ignores relative values: they are treated as unset.
    private static func absolute(_ path: String) -> String? {
        path.hasPrefix("/") ? path : nil
    }

    /// `XDG_DOWNLOAD_DIR="$HOME/Downloads"` from `user-dirs.dirs`, as `xdg-user-dir` reads it.
    /// A value equal to `$HOME` means the folder is disabled.
    static func downloadEntry(in text: String, home: String) -> String? {
        for line in text.split(separator: "\n") where line.hasPrefix("XDG_DOWNLOAD_DIR=") {
            var value = line.dropFirst("XDG_DOWNLOAD_DIR=".count)
            guard value.hasPrefix("\""), value.hasSuffix("\""), value.count >= 2 else { return nil }
            value = value.dropFirst().dropLast()
            var path = value.hasPrefix("$HOME") ? home + value.dropFirst("$HOME".count) : String(value)
            while path.count > 1, path.hasSuffix("/") { path.removeLast() }
            guard path.hasPrefix("/"), path != home else { return nil }
            return path
        }
        return nil
    }
}
