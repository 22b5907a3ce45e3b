/// Formats a time still to wait, as a progress row's ETA or a retry delay shows it:
/// "12 s", "3 min", "1 h 5 min"; `unknown` ("—", or "-" where the locale is not UTF-8) when it
/// is not known.
///
/// Rounds seconds up (a transfer 0.3 s from the end is "1 s" away, not "0 s") and minutes
/// to the nearest, because an ETA is a guess and minute precision is all it can promise.
public func formatRemainingTime(_ remaining: Duration?, unknown: String = "—") -> String {
    guard let remaining, remaining >= .zero else { return unknown }
    let seconds = remaining.progressSeconds
    guard seconds < 100 * 3600 else { return "> 99 h" }
    let wholeSeconds = Int(seconds.rounded(.up))
    if wholeSeconds < 60 { return "\(wholeSeconds) s" }
    let minutes = (wholeSeconds + 30) / 60
    if minutes < 60 { return "\(minutes) min" }
    let (hours, minutesLeft) = minutes.quotientAndRemainder(dividingBy: 60)
    return minutesLeft == 0 ? "\(hours) h" : "\(hours) h \(minutesLeft) min"
}

/// Formats how long something took: "0.4 s", "3.2 s", "45 s", "3 min 5 s", "1 h 5 min".
///
/// Tenths of a second only below ten seconds, where they still mean something.
public func formatElapsedTime(_ elapsed: Duration) -> String {
    var text: [UInt8] = []
    text.appendElapsedTime(elapsed)
    return String(decoding: text, as: UTF8.self)
}

extension Array where Element == UInt8 {
    /// Appends ``formatElapsedTime(_:)``'s text: a plain progress line writes one for each file
    /// downloaded, and building it as a string cost about 1,000 instructions.
    mutating func appendElapsedTime(_ elapsed: Duration) {
        let seconds = Swift.max(0, elapsed.progressSeconds)
        if seconds < 9.95 {
            let tenths = Int((seconds * 10).rounded())
            appendDecimal(tenths / 10)
            append(UInt8(ascii: "."))
            appendDecimal(tenths % 10)
            appendLiteral(" s")
            return
        }
        let wholeSeconds = Int(seconds.rounded())
        if wholeSeconds < 60 {
            appendDecimal(wholeSeconds)
            appendLiteral(" s")
            return
        }
        if wholeSeconds < 3600 {
            appendInUnits(wholeSeconds, " min", " s")
        } else {
            appendInUnits((wholeSeconds + 30) / 60, " h", " min")
        }
    }

    /// Appends `count` small units as whole large ones (sixty small to a large) and the small
    /// ones left, if any: "2 min 5 s", "1 h".
    private mutating func appendInUnits(_ count: Int, _ large: StaticString, _ small: StaticString) {
        let (whole, left) = count.quotientAndRemainder(dividingBy: 60)
        appendDecimal(whole)
        appendLiteral(large)
        guard left != 0 else { return }
        append(UInt8(ascii: " "))
        appendDecimal(left)
        appendLiteral(small)
    }
}

/// Formats a transfer rate: "3.1 MB/s", "512 bytes/s".
public func formatByteRate(_ bytesPerSecond: Double) -> String {
    let whole = bytesPerSecond.isFinite ? Int64(max(0, min(bytesPerSecond, 1e18)).rounded()) : 0
    return formatByteCount(whole) + "/s"
}

extension Duration {
    /// The duration in seconds as a `Double`, for rates and ratios.
    var progressSeconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) * 1e-18
    }
}
