/// The file name a `Content-Disposition` header offers (RFC 6266): `filename*` in the
/// RFC 8187/5987 form (`UTF-8''r%C3%A9sum%C3%A9.pdf`, or ISO-8859-1) wins over `filename`
/// (a token or a quoted string). The name is returned as sent, decoded but not yet made
/// safe: ``ServedFileName/sanitized(_:)`` does that.
enum ContentDisposition {
    /// The name in the header value `value`, or `nil` when it offers none.
    static func fileName(in value: String) -> String? {
        let parameters = self.parameters(of: Array(value.utf8))
        if let extended = parameters["filename*"], let name = decodeExtendedValue(extended), !name.isEmpty { return name }
        if let plain = parameters["filename"], !plain.isEmpty { return String(decoding: plain, as: UTF8.self) }
        return nil
    }

    /// The parameters after the disposition type, by lowercased name; quoted strings unquoted.
    private static func parameters(of bytes: [UInt8]) -> [String: [UInt8]] {
        var result: [String: [UInt8]] = [:]
        var index = bytes.firstIndex(of: UInt8(ascii: ";")) ?? bytes.endIndex
        while index < bytes.endIndex {
            index += 1 // the ";"
            while index < bytes.endIndex, isSpace(bytes[index]) { index += 1 }
            let nameStart = index
            while index < bytes.endIndex, bytes[index] != UInt8(ascii: "="), bytes[index] != UInt8(ascii: ";") { index += 1 }
            let name = String(decoding: bytes[nameStart..<index], as: UTF8.self).trimmingSpaces().lowercased()
            guard index < bytes.endIndex, bytes[index] == UInt8(ascii: "=") else { continue }
            index += 1
            while index < bytes.endIndex, isSpace(bytes[index]) { index += 1 }
            var value: [UInt8] = []
            if index < bytes.endIndex, bytes[index] == UInt8(ascii: "\"") {
                index += 1
                while index < bytes.endIndex, bytes[index] != UInt8(ascii: "\"") {
                    if bytes[index] == UInt8(ascii: "\\"), index + 1 < bytes.endIndex { index += 1 }
                    value.append(bytes[index])
                    index += 1
                }
                // Past the closing quote, to the next ";".
                index = bytes[min(index, bytes.endIndex)...].firstIndex(of: UInt8(ascii: ";")) ?? bytes.endIndex
            } else {
                let end = bytes[index...].firstIndex(of: UInt8(ascii: ";")) ?? bytes.endIndex
                value = Array(bytes[index..<end])
                while let last = value.last, isSpace(last) { value.removeLast() }
                index = end
            }
            // The first of a repeated parameter counts: a later one is more likely an injection.
            if result[name] == nil { result[name] = value }
        }
        return result
    }

    /// `charset'language'percent-encoded` as text; `nil` for another charset or bad encoding.
    private static func decodeExtendedValue(_ value: [UInt8]) -> String? {
        let parts = value.split(separator: UInt8(ascii: "'"), maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3 else { return nil }
        let charset = String(decoding: parts[0], as: UTF8.self).lowercased()
        let decoded = String(decoding: parts[2], as: UTF8.self).percentDecodedBytes()
        switch charset {
        case "utf-8":
            return String(validating: decoded, as: UTF8.self)
        case "iso-8859-1":
            return String(String.UnicodeScalarView(decoded.map { Unicode.Scalar($0) }))
        default:
            return nil
        }
    }

    private static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 }
}
