/// A rate as the manifest writes it: a whole number, a unit and `/s`, such as `2MB/s`,
/// `500KB/s` or `1MiB/s` (`limits.bandwidth`).
///
/// Units: `B`, decimal `KB`, `MB` (1 KB = 1000 bytes, as syncagent prints speeds) and binary
/// `KiB`, `MiB`; case-blind, with or without a space before the unit.
public enum BandwidthText {
    /// The units, as messages list them.
    public static let units = "B/s, KB/s, MB/s, KiB/s, MiB/s"

    private static let multipliers: [String: Int64] = [
        "b": 1, "kb": 1_000, "mb": 1_000_000, "kib": 1 << 10, "mib": 1 << 20,
    ]

    /// Bytes per second, above zero; nil when `text` is not such a rate.
    public static func parse(_ text: String) -> Int64? {
        let trimmed = text.trimmingSpaces().lowercased()
        guard trimmed.hasSuffix("/s") else { return nil }
        let amount = trimmed.dropLast(2)
        let digits = amount.prefix { $0.isASCII && $0.isNumber }
        guard !digits.isEmpty, digits.count <= 12, let number = Int64(digits) else { return nil }
        let unit = amount.dropFirst(digits.count).trimmingSpaces()
        guard let multiplier = multipliers[String(unit)], number > 0 else { return nil }
        return number * multiplier
    }
}
