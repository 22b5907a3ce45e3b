/// The file names syncagent keeps for itself: `.NAME.part`, the hidden file a download is
/// written to until it is whole and checked (see `PartFile`).
///
/// No entry may have such a name, whether written as its `path` or taken from its URL:
/// otherwise one entry's finished file could replace another entry's download in progress,
/// which would then be put in place under the other entry's name. Every staging name the
/// transfer side makes is of this form, and every name of this form is refused in a
/// manifest, so the two sets never meet.
///
/// The check ignores case: on a destination on a case-blind filesystem (a FAT or exFAT USB
/// stick), `.X.BIN.PART` is the same file as `.x.bin.part`.
public enum StagingName {
    /// The ending every staging name has.
    public static let suffix = ".part"

    /// Whether `name` (one path component) has the form of a staging name.
    public static func isReserved<Name: StringProtocol>(_ name: Name) -> Bool {
        isReserved(name.utf8)
    }

    /// Whether the UTF-8 bytes of one path component have the form of a staging name.
    private static func isReserved<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> Bool {
        guard bytes.count > suffix.utf8.count, bytes.first == UInt8(ascii: ".") else { return false }
        return bytes.suffix(suffix.utf8.count).lazy.map(\.asciiLowercased).elementsEqual(suffix.utf8)
    }

    /// The first component of a relative path that has the form of a staging name, if any.
    /// Folders count too: a folder with a partial's name would stand in that download's way.
    public static func reservedComponent(of path: String) -> Substring? {
        // On the UTF-8 bytes in place, as the file system splits a path: splitting the
        // `String` broke it into graphemes (6,600 instructions for each entry of a manifest),
        // and splitting its `UTF8View` into an array still cost 1,500.
        var path = path
        let found = path.withUTF8 { bytes -> Range<Int>? in
            var start = 0
            while start < bytes.count {
                let end = bytes[start...].firstIndex(of: UInt8(ascii: "/")) ?? bytes.count
                if isReserved(UnsafeBufferPointer(rebasing: bytes[start..<end])) { return start..<end }
                start = end + 1
            }
            return nil
        }
        guard let found else { return nil }
        let utf8 = path.utf8
        return Substring(utf8[utf8.index(utf8.startIndex, offsetBy: found.lowerBound)..<utf8.index(utf8.startIndex, offsetBy: found.upperBound)])
    }
}
