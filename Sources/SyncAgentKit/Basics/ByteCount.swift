/// Formats a count of bytes the way people read them: "712 KB", "28.6 MB", "1.0 GB".
///
/// Decimal units (1 KB = 1000 bytes), as GNOME and KDE show file sizes.
public func formatByteCount(_ bytes: Int64) -> String {
    var text: [UInt8] = []
    text.appendByteCount(bytes)
    return String(decoding: text, as: UTF8.self)
}

extension Array where Element == UInt8 {
    /// Appends ``formatByteCount(_:)``'s text: a plain progress line writes two sizes a file,
    /// and building each as a string cost about 1,100 instructions.
    mutating func appendByteCount(_ bytes: Int64) {
        guard bytes >= 1000 else {
            // As `counted(_:_:)` words it: "1 byte", "0 bytes".
            appendDecimal(bytes)
            appendLiteral(bytes == 1 ? " byte" : " bytes")
            return
        }
        var value = Double(bytes)
        var unit = 0
        while value >= 999.95, unit < 4 {
            value /= 1000
            unit += 1
        }
        if value >= 99.95 {
            appendDecimal(Int(value.rounded()))
        } else {
            // One decimal place, without Foundation's locale-dependent formatting.
            let tenths = Int((value * 10).rounded())
            appendDecimal(tenths / 10)
            append(UInt8(ascii: "."))
            appendDecimal(tenths % 10)
        }
        switch unit {
        case 1: appendLiteral(" KB")
        case 2: appendLiteral(" MB")
        case 3: appendLiteral(" GB")
        default: appendLiteral(" TB")
        }
    }
}
