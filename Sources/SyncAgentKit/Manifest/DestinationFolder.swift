/// Turns the `destination` a person wrote into an absolute, normalised folder path.
///
/// `~` and `~/…` start at the home folder; a relative path starts at the manifest's folder;
/// `.` and `..` are resolved by spelling alone (the folder may not exist yet).
enum DestinationFolder {
    /// Why a written destination cannot be used.
    struct Problem: Error, Sendable, Equatable {
        /// The kind of problem, for ``ManifestError``.
        var code: ManifestError.Code
        /// A sentence for a person, lowercase start, no final period.
        var message: String
    }

    /// `text` resolved against `homeDirectory` and `manifestFolder` (both absolute).
    static func resolve(_ text: String, homeDirectory: String, manifestFolder: String) throws(Problem) -> String {
        if text.unicodeScalars.contains(where: RelativePath.isControl) {
            throw Problem(code: .controlCharacter, message: "destination \(TextQuoting.quoted(text)) contains a control character")
        }
        if text == "~" || text.hasPrefix("~/") {
            return normalized(homeDirectory + "/" + text.dropFirst())
        }
        if text.hasPrefix("~") {
            throw Problem(code: .badValue, message: "destination \(TextQuoting.quoted(text)) names another user's home; expected \"~/…\" or an absolute path")
        }
        if text.hasPrefix("/") {
            return normalized(text)
        }
        return normalized(manifestFolder + "/" + text)
    }

    /// The folder that holds the file at `path` (absolute, or made absolute with `workingDirectory`).
    static func folder(ofFile path: String, workingDirectory: String) -> String {
        let absolute = path.hasPrefix("/") ? path : workingDirectory + "/" + path
        return normalized(absolute + "/..")
    }

    /// An absolute path with "//", "." and ".." spelled out of it; never ends in "/" but for "/".
    static func normalized(_ path: String) -> String {
        normalizedPath(path)
    }
}
