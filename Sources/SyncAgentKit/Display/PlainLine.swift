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
    public mutating func append(_ text: String) {
        var text = text
        text.withUTF8 { bytes.append(contentsOf: $0) }
    }

    /// Appends `text`'s bytes, as they are in the program.
    public mutating func append(_ text: StaticString) {
        bytes.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
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
