/// Where a whole batch stands, as the last line of the `--once` board shows it, the way
/// apt's and aria2c's last lines do:
/// `42%  3 of 10 files  20.3 MB of 48.2 MB  3.1 MB/s  ETA 9 s`.
public struct ProgressOverall: Sendable, Equatable {
    /// Files finished in any way: downloaded, unchanged or failed.
    public var filesDone: Int
    /// Files in the batch.
    public var filesTotal: Int
    /// Bytes of the batch's files so far: those put in place and those arriving.
    public var bytesReceived: Int64
    /// Bytes of the whole batch, once every file has started and told its size.
    public var bytesTotal: Int64?
    /// The running files' speeds added up, or `nil` while none is known.
    public var bytesPerSecond: Double?
    /// The time left at that speed, or `nil` when it cannot be guessed yet.
    public var remainingTime: Duration?

    /// A batch's standing, as given.
    public init(
        filesDone: Int, filesTotal: Int, bytesReceived: Int64, bytesTotal: Int64? = nil,
        bytesPerSecond: Double? = nil, remainingTime: Duration? = nil
    ) {
        self.filesDone = filesDone
        self.filesTotal = filesTotal
        self.bytesReceived = bytesReceived
        self.bytesTotal = bytesTotal
        self.bytesPerSecond = bytesPerSecond
        self.remainingTime = remainingTime
    }

    /// The line, at most `width` columns: the percentage (when the total is known), files,
    /// bytes, speed and ETA; the ETA goes first when it is narrow, then the speed, then the
    /// percentage, and what is left is cut. Bold when the style has colour.
    public func line(width: Int, style: TerminalStyle = TerminalStyle()) -> String {
        let files = "\(filesDone) of \(filesTotal) \(filesTotal == 1 ? "file" : "files")"
        let bytes = formatByteCount(bytesReceived) + (bytesTotal.map { " of " + formatByteCount($0) } ?? "")
        let percent = bytesTotal.map { total in
            "\(total > 0 ? Int(min(100, Double(bytesReceived) / Double(total) * 100).rounded(.down)) : 100)%"
        }
        let speed = bytesPerSecond.map(formatByteRate)
        let eta = "ETA " + formatRemainingTime(remainingTime, unknown: style.symbols.unknown)
        let choices: [[String?]] = [[percent, files, bytes, speed, eta], [percent, files, bytes, speed], [percent, files, bytes], [files, bytes], [files]]
        let candidates = choices.map { $0.compactMap { $0 }.joined(separator: "  ") }
        let text = candidates.first { ProgressText.columns(of: $0) <= width }
            ?? ProgressText.truncated(candidates.last ?? files, toColumns: width, ellipsis: style.symbols.ellipsis)
        return style.paint(text, .bold)
    }
}
