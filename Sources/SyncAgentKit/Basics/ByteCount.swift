/// Made once, not on every call: counts are formatted for every file fetched.
private let byteCountUnits = ["bytes", "KB", "MB", "GB", "TB"]

/// Formats a count of bytes the way people read them: "712 KB", "28.6 MB", "1.0 GB".
///
/// Decimal units (1 KB = 1000 bytes), as GNOME and KDE show file sizes.
public func formatByteCount(_ bytes: Int64) -> String {
    guard bytes >= 1000 else { return counted(Int(bytes), "byte") }
    var value = Double(bytes)
    var unit = 0
    while value >= 999.95, unit < byteCountUnits.count - 1 {
        value /= 1000
        unit += 1
    }
    let rounded = value >= 99.95 ? "\(Int(value.rounded()))" : String(format1: value)
    return "\(rounded) \(byteCountUnits[unit])"
}

extension String {
    /// One decimal place, without Foundation's locale-dependent formatting.
    fileprivate init(format1 value: Double) {
        let tenths = Int((value * 10).rounded())
        self = "\(tenths / 10).\(tenths % 10)"
    }
}
