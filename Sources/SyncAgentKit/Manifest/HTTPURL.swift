/// An absolute `http` or `https` URL with a host, checked without a URL library.
///
/// Only what the manifest needs is taken apart: the scheme (to refuse others), the host (it
/// must have one) and the path (its last component names the file by default).
struct HTTPURL: Sendable, Equatable {
    /// The URL as written.
    var text: String
    /// The host, without user info or port.
    var host: String
    /// The path, still percent-encoded, without query or fragment; empty when there is none.
    var path: String

    /// Why a text is not an http or https URL.
    struct Problem: Error, Sendable, Equatable {
        /// The kind of problem, for ``ManifestError``.
        var code: ManifestError.Code
        /// A sentence for a person, lowercase start, no final period.
        var message: String
    }

    /// Checks `text` and takes it apart.
    static func parse(_ text: String) throws(Problem) -> HTTPURL {
        // On the bytes in place: a copy into an array, and the checks of each step through it,
        // were most of the 2,700 instructions that each file entry's URL cost.
        var bytesOfText = text
        return try bytesOfText.withUTF8 { bytes in Result { () throws(Problem) in try parse(text, bytes: bytes) } }.get()
    }

    private static func parse(_ text: String, bytes: UnsafeBufferPointer<UInt8>) throws(Problem) -> HTTPURL {
        // Quoting walks the text, so only messages pay for it.
        var shown: String { TextQuoting.quoted(text) }
        for byte in bytes {
            if byte == UInt8(ascii: " ") {
                throw Problem(code: .badValue, message: "the URL \(shown) contains a space; write spaces as %20")
            }
            if byte < 0x20 || byte == 0x7F {
                throw Problem(code: .controlCharacter, message: "the URL \(shown) contains a control character")
            }
        }
        guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")), colon > 0,
              isLetter(bytes[0]), bytes[1..<colon].allSatisfy(isSchemeCharacter)
        else {
            throw Problem(code: .badValue, message: "expected an http or https URL for `url`, found \(shown)")
        }
        // Compared byte by byte, without a lowercased copy: the scheme holds only letters,
        // digits and "+-.", and setting bit 5 lowercases a letter and leaves the others as
        // they are.
        let isHTTP = (colon == 4 || colon == 5)
            && bytes[0] | 0x20 == UInt8(ascii: "h") && bytes[1] | 0x20 == UInt8(ascii: "t")
            && bytes[2] | 0x20 == UInt8(ascii: "t") && bytes[3] | 0x20 == UInt8(ascii: "p")
            && (colon == 4 || bytes[4] | 0x20 == UInt8(ascii: "s"))
        guard isHTTP else {
            throw Problem(code: .unsupportedScheme, message: "\(shown) is not an http or https URL")
        }
        let scheme = colon == 4 ? "http" : "https"
        guard colon + 2 < bytes.count, bytes[colon + 1] == UInt8(ascii: "/"), bytes[colon + 2] == UInt8(ascii: "/") else {
            throw Problem(code: .badValue, message: "the URL \(shown) has no \"//\" after \"\(scheme):\"; expected \"\(scheme)://host/…\"")
        }
        let authorityStart = colon + 3
        let authorityEnd = bytes[authorityStart...].firstIndex { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") } ?? bytes.endIndex
        let host = try hostAndPort(bytes[authorityStart..<authorityEnd], of: text, scheme: scheme)
        let pathEnd = bytes[authorityEnd...].firstIndex { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") } ?? bytes.endIndex
        return HTTPURL(text: text, host: host, path: String(decoding: bytes[authorityEnd..<pathEnd], as: UTF8.self))
    }

    /// The last component of ``path``, still percent-encoded; empty when the path ends in "/".
    var lastPathComponent: Substring {
        RelativePath.lastComponent(of: path)
    }

    /// What follows the first "?" up to any "#", still percent-encoded; `nil` when none.
    var query: Substring? {
        guard let mark = text.firstIndex(of: "?") else { return nil }
        return text[text.index(after: mark)...].prefix { $0 != "#" }
    }

    private static func hostAndPort(_ authority: Slice<UnsafeBufferPointer<UInt8>>, of text: String, scheme: String) throws(Problem) -> String {
        var shown: String { TextQuoting.quoted(text) }
        // User info ("user:password@") comes before the last "@".
        let hostStart = authority.lastIndex(of: UInt8(ascii: "@")).map { $0 + 1 } ?? authority.startIndex
        let hostAndPort = authority[hostStart...]
        var hostEnd = hostAndPort.endIndex
        if hostAndPort.first == UInt8(ascii: "[") {
            // An IPv6 literal: its colons are not the port's.
            guard let close = hostAndPort.firstIndex(of: UInt8(ascii: "]")) else {
                throw Problem(code: .badValue, message: "the URL \(shown) has an IPv6 address without its closing \"]\"")
            }
            hostEnd = close + 1
        } else if let colon = hostAndPort.firstIndex(of: UInt8(ascii: ":")) {
            hostEnd = colon
        }
        let host = String(decoding: hostAndPort[..<hostEnd], as: UTF8.self)
        guard !host.isEmpty else {
            throw Problem(code: .badValue, message: "the URL \(shown) has no host; expected \"\(scheme)://host/…\"")
        }
        let port = hostAndPort[hostEnd...].dropFirst()
        if hostEnd < hostAndPort.endIndex {
            guard hostAndPort[hostEnd] == UInt8(ascii: ":"), port.count <= 5,
                  port.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
                  port.reduce(0, { $0 * 10 + Int($1 - UInt8(ascii: "0")) }) <= 65_535
            else {
                throw Problem(code: .badValue, message: "the URL \(shown) has an invalid port; expected a number up to 65535 after the host")
            }
        }
        return host
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20)
    }

    private static func isSchemeCharacter(_ byte: UInt8) -> Bool {
        isLetter(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
            || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
    }
}
