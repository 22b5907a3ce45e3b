/// A size as the manifest writes it: a whole number and a unit, such as `500MB`, `16GB` or
/// `2GiB` (`max_size`).
///
/// Units: `B`, decimal `KB`, `MB`, `GB`, `TB` (1 KB = 1000 bytes, as file managers show sizes
/// and as syncagent prints them) and binary `KiB`, `MiB`, `GiB`, `TiB`; case-blind, with or
/// without a space before the unit. A number alone counts bytes.
enum ByteSizeText {
    /// The units, as messages list them.
    static let units = "B, KB, MB, GB, TB, KiB, MiB, GiB, TiB"

    private static let multipliers: [String: Int64] = [
        "": 1, "b": 1,
        "kb": 1_000, "mb": 1_000_000, "gb": 1_000_000_000, "tb": 1_000_000_000_000,
        "kib": 1 << 10, "mib": 1 << 20, "gib": 1 << 30, "tib": 1 << 40,
    ]

    /// The number of bytes `text` writes, ignoring spaces around it and before the unit; nil
    /// when it is not a size or does not fit in 63 bits.
    static func parse(_ text: String) -> Int64? {
        let bytes = Array(text.utf8)
        let digits = bytes.drop { $0 == UInt8(ascii: " ") }.prefix { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
        guard !digits.isEmpty, digits.count <= 18 else { return nil }
        let amount = digits.reduce(Int64(0)) { $0 * 10 + Int64($1 - UInt8(ascii: "0")) }
        let unit = String(decoding: bytes[digits.endIndex...], as: UTF8.self).trimmingSpaces().lowercased()
        guard let multiplier = multipliers[unit] else { return nil }
        let (size, overflow) = amount.multipliedReportingOverflow(by: multiplier)
        return overflow ? nil : size
    }
}
