import Testing
@testable import SyncAgentKit

struct ByteCountTests {
    @Test(arguments: [
        (0, "0 bytes"), (1, "1 byte"), (999, "999 bytes"), (1000, "1.0 KB"),
        (712_000, "712 KB"), (28_600_000, "28.6 MB"), (1_073_741_824, "1.1 GB"), (99_960, "100 KB"),
    ] as [(Int64, String)])
    func formats(bytes: Int64, expected: String) {
        #expect(formatByteCount(bytes) == expected)
    }

    @Test(arguments: [
        (-5, "-5 bytes"), (Int64.min, "-9223372036854775808 bytes"), (999_949, "1000 KB"), (999_950, "1.0 MB"),
        (99_949, "99.9 KB"), (99_950, "100 KB"), (9_949, "9.9 KB"), (9_950, "10.0 KB"), (1_000_000_000_000, "1.0 TB"),
        (999_950_000_000_000, "1000 TB"), (Int64.max, "9223372 TB"),
    ] as [(Int64, String)])
    func formatsAtUnitBoundaries(bytes: Int64, expected: String) {
        #expect(formatByteCount(bytes) == expected)
    }

    /// The bytes written for a size are the text interpolation gave, which this test keeps
    /// as it was: at every unit's rounding edges, and on a spread of other sizes.
    @Test func writesWhatInterpolationWrote() {
        var sizes: [Int64] = [0, 1, 2, 999, 1000, 1001, Int64.max, Int64.min, -1, -1000]
        var power: Int64 = 1000
        for _ in 1...5 {
            // Where a tenth, a whole number and the next unit take over.
            for edge in [9.995, 99.95, 999.95] {
                let bytes = Int64((edge * Double(power)).rounded())
                sizes += (-3...3).map { bytes + $0 }
            }
            sizes += [power - 1, power, power + 1, power * 3 / 2]
            power *= 1000
        }
        // Past the last unit, terabytes go on growing.
        sizes += [power - 1, power, power * 9]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2_000 { sizes.append(Int64.random(in: 0...(1 << Int64.random(in: 1...62, using: &generator)), using: &generator)) }
        for size in sizes {
            #expect(formatByteCount(size) == interpolatedByteCount(size), "\(size)")
        }
    }

    /// `formatByteCount` as it was written with string interpolation.
    private func interpolatedByteCount(_ bytes: Int64) -> String {
        guard bytes >= 1000 else { return counted(Int(bytes), "byte") }
        let units = ["bytes", "KB", "MB", "GB", "TB"]
        var value = Double(bytes)
        var unit = 0
        while value >= 999.95, unit < units.count - 1 {
            value /= 1000
            unit += 1
        }
        let tenths = Int((value * 10).rounded())
        let rounded = value >= 99.95 ? "\(Int(value.rounded()))" : "\(tenths / 10).\(tenths % 10)"
        return "\(rounded) \(units[unit])"
    }
}
