/// The `limits` keys that keep syncagent polite: the free-space margin and the bandwidth budget.
extension ManifestValidator {
    /// The keys of one `bandwidth_windows` item.
    static let bandwidthWindowKeys = ["window", "bandwidth"]

    /// Reads `min_free`, `bandwidth` or `bandwidth_windows` into `limits`.
    mutating func readPoliteLimit(_ entry: YAMLMappingEntry, into limits: inout Manifest.Limits) {
        switch entry.key {
        case "min_free":
            guard let text = text(entry.value, for: "min_free", expected: "a size like \"2GB\" or a share like \"10%\"") else { return }
            do {
                limits.minFree = try FreeSpaceMarginText.parse(text)
            } catch {
                report(.badValue, at: entry.value.mark, error.message)
            }
        case "bandwidth":
            if let rate = bandwidth(entry.value, for: "bandwidth") { limits.bandwidth.bytesPerSecond = rate }
        case "bandwidth_windows":
            limits.bandwidth.windows = bandwidthWindows(entry.value)
        default:
            preconditionFailure("readPoliteLimit called for `\(entry.key)`")
        }
    }

    /// A rate such as `2MB/s` (see ``BandwidthText``).
    private mutating func bandwidth(_ node: YAMLNode, for key: String) -> Int64? {
        guard case .scalar(let text, _) = node.value, let rate = BandwidthText.parse(text) else {
            report(.badValue, at: node.mark, "expected a rate like \"2MB/s\" or \"500KB/s\" for `\(key)` (units \(BandwidthText.units)), found \(Self.describe(node))")
            return nil
        }
        return rate
    }

    /// A list of `{ window: "08:00-18:00", bandwidth: 500KB/s }`.
    private mutating func bandwidthWindows(_ node: YAMLNode) -> [Manifest.BandwidthLimit.Window] {
        let example = "{ window: \"08:00-18:00\", bandwidth: 500KB/s }"
        guard case .sequence(let items) = node.value else {
            report(.wrongType, at: node.mark, "expected a list of windows such as - \(example) for `bandwidth_windows`, found \(Self.describe(node))")
            return []
        }
        var windows: [Manifest.BandwidthLimit.Window] = []
        for item in items {
            guard let entries = mapping(item, for: "bandwidth_windows", example: example) else { continue }
            var window: Manifest.DailyWindow?
            var rate: Int64?
            // A mistyped key is reported as such, not also as the key it was meant to be.
            var mistyped = false
            for entry in entries {
                switch entry.key {
                case "window":
                    guard let text = text(entry.value, for: "window", expected: "a daily window like \"08:00-18:00\"") else { continue }
                    do {
                        window = try DailyWindowText.parse(text)
                    } catch {
                        report(.badValue, at: entry.value.mark, error.message)
                    }
                case "bandwidth":
                    rate = bandwidth(entry.value, for: "bandwidth")
                default:
                    mistyped = true
                    reportUnknownKey(entry, where: "in a `bandwidth_windows` item", known: Self.bandwidthWindowKeys)
                }
            }
            let given = Set(entries.map(\.key))
            for key in Self.bandwidthWindowKeys where !given.contains(key) && !mistyped {
                report(.missingKey, at: item.mark, "missing key `\(key)` in a `bandwidth_windows` item; expected \(example)")
            }
            if let window, let rate { windows.append(.init(window: window, bytesPerSecond: rate)) }
        }
        return windows
    }
}
