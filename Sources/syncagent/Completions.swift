import ArgumentParser
import FoundationEssentials
import SyncAgentKit

/// What the shell completes where syncagent takes a file's title (`syncagent pause Sc<TAB>`):
/// the titles of the manifest in force — the one `--manifest` names on the command line being
/// completed, else the user's — that start with what was typed, whatever its case.
///
/// Never creates the default manifest or writes anything: a completion only reads, and a
/// manifest that is missing or invalid completes nothing.
enum Completions {
    /// The shell's completion for a title argument.
    static let titles = CompletionKind.custom { words, _, typed in
        titles(words: words, typed: typed)
    }

    /// The titles starting with `typed`, from the manifest `words` (the command line) selects.
    static func titles(words: [String], typed: String) -> [String] {
        let locations = Locations(
            manifest: manifestArgument(in: words), stateDirectory: nil, environment: ProcessInfo.processInfo.environment,
            workingDirectory: FileManager.default.currentDirectoryPath
        ) { FileSystemPath.text(ofFile: $0) }
        guard let manifest = try? locations.loadValidManifest() else { return [] }
        let typed = typed.lowercased()
        return (manifest.files.map(\.title) + manifest.feeds.map(\.title)).filter { typed.isEmpty || $0.lowercased().hasPrefix(typed) }
    }

    /// The value of `--manifest FILE` or `--manifest=FILE` on the command line, if given.
    static func manifestArgument(in words: [String]) -> String? {
        for (index, word) in words.enumerated() {
            if word == "--manifest", index + 1 < words.count, !words[index + 1].isEmpty { return words[index + 1] }
            if word.hasPrefix("--manifest=") { return String(word.dropFirst("--manifest=".count)) }
        }
        return nil
    }
}
