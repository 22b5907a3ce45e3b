// libFuzzer entry point for the manifest reader: built by fuzz/run together with the sources
// of Sources/SyncAgentKit/Manifest (one module), not part of the Swift package.

/// Where the fuzzed manifest pretends to live.
private let context = ManifestLoader.Context(
    manifestPath: "/home/ada/.config/syncagent/manifest.yaml", homeDirectory: "/home/ada",
    defaultDestination: "/home/ada/Downloads/syncagent", workingDirectory: "/work"
)

/// Loads one input as a manifest and checks what the loader promises, beyond not crashing:
/// an accepted manifest keeps every file inside the destination, under a clean title, from
/// an http(s) URL; a refused one explains itself with no raw control character (errors are
/// printed to terminals) and a place inside the text.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzManifest(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    do {
        let manifest = try ManifestLoader(context: context).load(bytes)
        check(manifest)
    } catch {
        check(error, lines: lineCount(bytes))
    }
    return 0
}

private func check(_ manifest: Manifest) {
    var destinations: Set<String> = []
    for entry in manifest.files {
        let components = entry.path.split(separator: "/", omittingEmptySubsequences: false)
        guard !entry.path.hasPrefix("/"), !components.contains(where: { $0.isEmpty || $0 == "." || $0 == ".." }) else {
            fatalError("a path that is not a clean relative path: \(entry.path.debugDescription)")
        }
        guard manifest.destinationPath(of: entry).hasPrefix(manifest.destination.hasSuffix("/") ? manifest.destination : manifest.destination + "/") else {
            fatalError("a file outside the destination: \(entry.path.debugDescription)")
        }
        guard destinations.insert(entry.path).inserted else {
            fatalError("two entries share \(entry.path.debugDescription)")
        }
        let scheme = entry.url.prefix { $0 != ":" }.lowercased()
        guard scheme == "http" || scheme == "https" else {
            fatalError("a URL that is not http or https: \(entry.url.debugDescription)")
        }
        guard !entry.title.isEmpty, !entry.title.unicodeScalars.contains(where: isControl) else {
            fatalError("a title with a control character: \(entry.title.debugDescription)")
        }
    }
}

private func check(_ invalid: InvalidManifest, lines: Int) {
    guard !invalid.errors.isEmpty else { fatalError("a manifest refused without a reason") }
    for error in invalid.errors {
        guard !error.description.unicodeScalars.contains(where: isControl) else {
            fatalError("an error message with a raw control character: \(error.description.debugDescription)")
        }
        guard (0...lines).contains(error.line), error.column >= 0 else {
            fatalError("an error at \(error.line):\(error.column), outside a text of \(lines) lines")
        }
    }
}

/// Lines as YAML counts them: `\r\n`, `\r`, `\n`, U+0085, U+2028 and U+2029 end a line.
private func lineCount(_ bytes: [UInt8]) -> Int {
    let text = String(decoding: bytes, as: UTF8.self)
    return 1 + text.unicodeScalars.indices.filter { index in
        switch text.unicodeScalars[index] {
        case "\n": index == text.unicodeScalars.startIndex || text.unicodeScalars[text.unicodeScalars.index(before: index)] != "\r"
        case "\r", "\u{85}", "\u{2028}", "\u{2029}": true
        default: false
        }
    }.count
}

private func isControl(_ scalar: Unicode.Scalar) -> Bool {
    scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
}
