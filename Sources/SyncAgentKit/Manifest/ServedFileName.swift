import FoundationEssentials

/// File names that do not come from the person who wrote the manifest: a server's
/// `Content-Disposition` name, or one found in a URL's query. Made as safe as a manifest's
/// `path`, and then some: one name, never a path, never hidden, never a staging name
/// (``StagingName``), no control or bidi characters, at most 244 bytes so `.NAME.part` fits.
public enum ServedFileName {
    /// Extensions of server-side scripts: a URL ending in `download.php` names the program
    /// that sends the file, not the file.
    static let scriptExtensions: Set<String> = [
        "php", "php3", "php4", "php5", "phtml", "asp", "aspx", "ashx", "jsp", "jspx", "do", "action",
        "cgi", "pl", "py", "rb", "cfm", "dll", "exe", "nsf",
    ]

    /// The longest name accepted, in UTF-8 bytes: 255 less room for the staging `.` and `.part`.
    static let maximumBytes = 244

    /// Whether a name taken from a URL's path says what the file is: it has an extension,
    /// and not a script's.
    public static func isUseful(_ name: Substring) -> Bool {
        var name = name
        if let verdict = name.withUTF8(isUsefulASCII) { return verdict }
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return false }
        let fileExtension = name[name.index(after: dot)...].lowercased()
        return !fileExtension.isEmpty && !scriptExtensions.contains(fileExtension)
    }

    /// ``isUseful(_:)`` for a name in ASCII, read from its bytes (nil for any other name):
    /// without `Character`s, a lowercased copy or a `String` hashed, as every file entry
    /// without a `path` asks it, which took 2,900 instructions an entry.
    private static func isUsefulASCII(_ name: UnsafeBufferPointer<UInt8>) -> Bool? {
        var extensionCode: UInt64 = 0
        var extensionLength = 0
        var hasDot = false
        var isFirst = true
        for byte in name {
            // NUL would pack like no byte at all.
            guard byte != 0, byte < 0x80 else { return nil }
            if byte == UInt8(ascii: ".") {
                // A leading dot starts a hidden name, not an extension.
                hasDot = hasDot || !isFirst
                if !isFirst { (extensionCode, extensionLength) = (0, 0) }
            } else if extensionLength < 8 {
                extensionCode = extensionCode << 8 | UInt64(byte.asciiLowercased)
                extensionLength += 1
            } else {
                extensionLength = 9
            }
            isFirst = false
        }
        return hasDot && extensionLength > 0 && (extensionLength > 8 || !scriptExtensionCodes.contains(extensionCode))
    }

    /// ``scriptExtensions``, each packed into an integer as ``isUsefulASCII(_:)`` packs one.
    private static let scriptExtensionCodes = Set(scriptExtensions.map { $0.utf8.reduce(UInt64(0)) { $0 << 8 | UInt64($1) } })

    /// A name from a URL's query (`?file=report.pdf`, `?name=a%20b.pdf`): the value of the
    /// first parameter that is a useful name, `file` and `filename` first; `nil` when none is.
    static func fromQuery(_ query: Substring) -> String? {
        var candidates: [(preferred: Bool, value: Substring)] = []
        for parameter in query.split(separator: "&") {
            let parts = parameter.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2 else { continue }
            let key = parts[0].lowercased()
            candidates.append((["file", "filename", "name", "f", "download"].contains(key), parts[1]))
        }
        for (_, value) in candidates.filter(\.preferred) + candidates.filter({ !$0.preferred }) {
            let decoded = String(value).replacingPlus().percentDecoded() ?? String(value)
            if let name = sanitized(decoded), isUseful(Substring(name)) { return name }
        }
        return nil
    }

    /// `raw` as one safe file name, or `nil` when nothing usable is left. Only the last
    /// component of a path counts (`/`, or `\` as Windows writes it); leading dots and spaces
    /// go, so the name is never hidden and never a staging name.
    public static func sanitized(_ raw: String) -> String? {
        let last = raw.split(separator: "/", omittingEmptySubsequences: false).last.map(String.init) ?? raw
        let base = last.split(separator: "\\", omittingEmptySubsequences: false).last.map(String.init) ?? last
        var cleaned = String.UnicodeScalarView()
        for scalar in String(decoding: base._nfcCodeUnits, as: UTF8.self).unicodeScalars {  // NFC, from the standard library
            if RelativePath.isControl(scalar) || scalar.isBidiControl {
                cleaned.append("_")
            } else {
                cleaned.append(scalar)
            }
        }
        var name = String(cleaned).trimmingEdges { $0 == "." || $0 == " " }
        if name.utf8.count > maximumBytes { name = cut(name) }
        guard !name.isEmpty, !StagingName.isReserved(name) else { return nil }
        return name
    }

    /// `name` cut to ``maximumBytes``, keeping its extension when it has a short one.
    private static func cut(_ name: String) -> String {
        let dot = name.lastIndex(of: ".")
        let fileExtension = dot.map { String(name[$0...]) }.flatMap { $0.utf8.count <= 16 ? $0 : nil } ?? ""
        var stem = ""
        for character in name.dropLast(fileExtension.count) {
            guard stem.utf8.count + character.utf8.count + fileExtension.utf8.count <= maximumBytes else { break }
            stem.append(character)
        }
        return stem.trimmingEdges { $0 == "." || $0 == " " } + fileExtension
    }
}

extension String {
    /// A query's `+` as the space a form encodes with it.
    fileprivate func replacingPlus() -> String {
        String(unicodeScalars.map { $0 == "+" ? " " : Character($0) })
    }

    /// The text without the scalars at either end that `isEdge` picks.
    fileprivate func trimmingEdges(_ isEdge: (Unicode.Scalar) -> Bool) -> String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !isEdge($0) }), let last = scalars.lastIndex(where: { !isEdge($0) }) else { return "" }
        return String(Substring(scalars[first...last]))
    }
}
