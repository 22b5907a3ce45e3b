import Glibc

/// Keeps a download from filling the filesystem it is written to: the space left free may
/// not drop below a margin. Looked at before a long body whose length is known, and every few
/// mebibytes as a body grows (the first time after 16 KiB), so a body of no stated length that
/// never ends (or another program filling the disk meanwhile) stops the download before the
/// disk is full.
///
/// The margin is the manifest's `limits.min_free`, by default the smaller of 1 GB and 5% of the
/// filesystem: room for the system and the user's other programs to go on working, whatever
/// the disk's size.
struct FreeSpaceGuard {
    /// The largest margin kept.
    static let largestMargin: Int64 = 1_000_000_000
    /// Bodies at least this long have the free space checked before the first byte is
    /// written, to fail at once rather than after writing most of them. A smaller one costs
    /// less to write than to check; the checks while writing still see it.
    static let smallestCheckedAhead: Int64 = 1 << 20
    /// The most bytes written between two looks at the free space: one `fstatvfs(2)` per
    /// 8 MiB costs nothing measurable, and the margin is far larger.
    static let largestInterval: Int64 = 8 << 20

    /// The shortest interval between two looks, also the first look's when the body is not
    /// checked ahead: before it, a body writes less than any margin.
    static let smallestInterval: Int64 = 16 << 10

    /// Bytes this download leaves free on its filesystem; `nil` until the first look, which
    /// a body shorter than ``smallestInterval`` (most small files) never needs.
    private(set) var margin: Int64?
    private var interval: Int64
    /// The count of bytes written at which to look again.
    private var nextCheck: Int64
    private let rule: Manifest.FreeSpaceMargin?

    /// The margin for a filesystem of `size` bytes: `rule`, or by default the smaller of
    /// 1 GB and 5%.
    static func margin(ofFilesystemSize size: Int64, rule: Manifest.FreeSpaceMargin? = nil) -> Int64 {
        rule?.bytes(ofFilesystemSize: size) ?? min(largestMargin, size / 20)
    }

    /// A guard for `file`, before the body's first byte: fails when the body's `remaining`
    /// bytes (if known) would not leave the margin free. `written`: bytes already in the file;
    /// `rule`: the manifest's `min_free`, if it has one.
    ///
    /// Only a body checked ahead has the filesystem looked at now; any other is looked at
    /// once ``smallestInterval`` bytes are written, no later than with the margin known.
    init(file: some FreeSpaceSource, written: Int64, remaining: Int64?, rule: Manifest.FreeSpaceMargin? = nil) throws(TransferFailure) {
        self.rule = rule
        interval = Self.smallestInterval
        nextCheck = written + Self.smallestInterval
        // With a margin of the user's own, even a small body is checked: it was asked for.
        guard let remaining, remaining >= Self.smallestCheckedAhead || rule != nil else { return }
        guard let space = file.space else {
            margin = 0
            return
        }
        let margin = learnMargin(from: space)
        nextCheck = written + interval
        if remaining > space.available - margin {
            let kept = margin > 0 ? ", and syncagent leaves \(formatByteCount(margin)) free (`limits.min_free`)" : ""
            throw TransferFailure(.disk, "not enough space for \(file.destination): \(formatByteCount(remaining)) needed, "
                + "\(formatByteCount(space.available)) free\(kept)")
        }
    }

    /// The margin for the filesystem `space` describes, kept with the interval it sets.
    private mutating func learnMargin(from space: (available: Int64, size: Int64)) -> Int64 {
        let margin = Self.margin(ofFilesystemSize: space.size, rule: rule)
        self.margin = margin
        // On a small filesystem the margin is small too: look often enough not to overshoot it.
        interval = max(Self.smallestInterval, min(Self.largestInterval, margin / 4))
        return margin
    }

    /// Looks at the free space again, before `upcoming` more bytes join the `written` ones,
    /// when enough were written since the last look; fails when the margin would not stay
    /// free after those bytes (or after the `remaining` bytes still to come, if known).
    mutating func check(file: some FreeSpaceSource, written: Int64, upcoming: Int, remaining: Int64?) throws(TransferFailure) {
        guard written + Int64(upcoming) >= nextCheck else { return }
        guard let space = file.space else {
            nextCheck = written + Int64(upcoming) + interval
            return
        }
        let margin = margin ?? learnMargin(from: space)
        nextCheck = written + Int64(upcoming) + interval
        guard space.available - max(Int64(upcoming), remaining ?? 0) < margin else { return }
        throw TransferFailure(.disk, "stopped writing \(file.destination) after \(formatByteCount(written)): its disk has "
            + "\(formatByteCount(space.available)) free, and syncagent leaves at least \(formatByteCount(margin)) free (`limits.min_free`)")
    }
}

/// Where a ``FreeSpaceGuard`` looks: the file being written (``PartFile``).
protocol FreeSpaceSource {
    /// The file's final path, for messages.
    var destination: String { get }
    /// Bytes free for the file on its filesystem, and the filesystem's size.
    var space: (available: Int64, size: Int64)? { get }
}

extension PartFile: FreeSpaceSource {}
