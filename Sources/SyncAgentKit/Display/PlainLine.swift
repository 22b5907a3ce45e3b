/// A line of text as bytes, made by appending pieces: what ``ProgressLines`` makes a plain
/// line with. Appending the bytes of a string to an array costs a fraction of appending the
/// string to another string, which checks and copies in several steps.
public struct PlainLine: Sendable {
    /// The line's UTF-8 bytes so far.
    public private(set) var bytes: [UInt8] = []

    /// An empty line.
    public init() {}

    /// Whether nothing was appended.
    public var isEmpty: Bool { bytes.isEmpty }

    /// The line as a string.
    public var text: String { String(decoding: bytes, as: UTF8.self) }

    /// Appends `text`'s bytes.
    ///
    /// Disfavoured so that a literal goes to ``append(_:)-(StaticString)``, which copies its
    /// bytes without asking a string for them.
    @_disfavoredOverload
    public mutating func append(_ text: String) {
        var text = text
        text.withUTF8 { bytes.append(contentsOf: $0) }
    }

    /// Appends `text`'s bytes, as they are in the program.
    public mutating func append(_ text: StaticString) {
        bytes.appendLiteral(text)
    }

    /// Appends `count` spaces (at most eight).
    public mutating func append(spaces count: Int) {
        for _ in 0..<min(max(0, count), 8) { bytes.append(UInt8(ascii: " ")) }
    }

    /// Appends a size as ``formatByteCount(_:)`` words it: "28.6 MB".
    public mutating func append(byteCount: Int64) {
        bytes.appendByteCount(byteCount)
    }

    /// Appends a duration as ``formatElapsedTime(_:)`` words it: "3.2 s".
    public mutating func append(elapsedTime: Duration) {
        bytes.appendElapsedTime(elapsedTime)
    }

    /// Appends one byte: an ASCII character.
    public mutating func append(byte: UInt8) {
        bytes.append(byte)
    }

    /// Empties the line, keeping its storage when `keepingCapacity`.
    public mutating func removeAll(keepingCapacity: Bool = false) {
        bytes.removeAll(keepingCapacity: keepingCapacity)
    }
}
