/// Checks and normalises where a file goes inside the destination folder.
///
/// A written `path` must stay inside: not absolute, no `..`. A name taken from a URL is
/// sanitised instead, since the person did not choose it: percent-decoded, then any `/` or
/// control character it decodes to becomes `_`, so "%2F.." cannot climb out.
enum RelativePath {
    /// Why a written `path` cannot be used.
    struct Problem: Error, Sendable, Equatable {
        /// The kind of problem, for ``ManifestError``.
        var code: ManifestError.Code
        /// A sentence for a person, lowercase start, no final period.
        var message: String
    }

    /// The longest file or folder name Linux filesystems take, in bytes.
    static let maximumNameLength = 255

    /// `text` as a normalised relative path ("a//./b" → "a/b"), or why it cannot be one.
    static func normalized(_ text: String) throws(Problem) -> String {
        // Quoting walks the text, so only messages pay for it.
        var shown: String { TextQuoting.quoted(text) }
        if text.unicodeScalars.contains(where: isControl) {
            throw Problem(code: .controlCharacter, message: "path \(shown) contains a control character")
        }
        if text.hasPrefix("/") {
            throw Problem(code: .pathEscapes, message: "path \(shown) is absolute; expected a path inside the destination, such as \"guides/file.pdf\"")
        }
        var components: [Substring] = []
        for component in text.split(separator: "/") where component != "." {
            if component == ".." {
                throw Problem(code: .pathEscapes, message: "path \(shown) uses \"..\"; a path must stay inside the destination")
            }
            if component.utf8.count > maximumNameLength {
                throw Problem(code: .badValue, message: "path \(shown) has a name longer than \(maximumNameLength) bytes")
            }
            components.append(component)
        }
        guard !components.isEmpty else {
            throw Problem(code: .badValue, message: "path \(shown) names no file; expected a file name such as \"file.pdf\"")
        }
        return components.joined(separator: "/")
    }

    /// The file name a URL's last path component gives, sanitised; nil when it gives none
    /// (the path ends in "/", or the name is "." or "..").
    static func fileName(fromURLComponent component: Substring) -> String? {
        var component = component
        let isPlain = component.withUTF8 { bytes in
            bytes.allSatisfy { $0 > 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "%") }
        }
        var name = ""
        if isPlain {
            // Most names are printable ASCII with nothing to decode or replace.
            name = String(component)
        } else {
            for scalar in percentDecodedOrAsWritten(component).unicodeScalars {
                name.unicodeScalars.append(scalar == "/" || isControl(scalar) ? "_" : scalar)
            }
        }
        guard !name.isEmpty, name != ".", name != ".." else { return nil }
        while name.utf8.count > maximumNameLength { name.removeFirst() }
        return name
    }

    /// The last component of a normalised relative path, or of a URL's path (what follows its
    /// last "/").
    static func lastComponent(of path: String) -> Substring {
        var path = path
        // On the bytes in place: "/" is ASCII, and finding it needs no grapheme breaking, nor
        // the checks of each step through a `UTF8View` (500 instructions a call).
        guard let slash = path.withUTF8({ $0.lastIndex(of: UInt8(ascii: "/")) }) else { return Substring(path) }
        return Substring(path.utf8[path.utf8.index(path.utf8.startIndex, offsetBy: slash + 1)...])
    }

    /// The folders a normalised relative path lies in: "a/b/c.pdf" → ["a", "a/b"].
    static func enclosingFolders(of path: String) -> [Substring] {
        var path = path
        let slashes = path.withUTF8 { bytes in bytes.indices.filter { bytes[$0] == UInt8(ascii: "/") } }
        return slashes.map { Substring(path.utf8[..<path.utf8.index(path.utf8.startIndex, offsetBy: $0)]) }
    }

    /// Whether a scalar is a C0 or C1 control character, or DEL.
    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }

    /// `%XX` sequences decoded; the text is kept as written if it does not decode to UTF-8.
    private static func percentDecodedOrAsWritten(_ text: Substring) -> String {
        text.percentDecoded() ?? String(text)
    }
}
