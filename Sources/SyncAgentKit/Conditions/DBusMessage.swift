/// The D-Bus messages syncagent speaks without GIO: a method call whose arguments are strings,
/// written; any message, read far enough to know whose reply it is, what failed, and the
/// `UINT32`s and strings of its body. Enough for logind's `Inhibit` (``SleepInhibitor``),
/// which would otherwise load GLib, GObject and GIO — 2.9 MiB resident, a tenth of a
/// 10,000-file fetch's peak — for one call.
/// - SeeAlso: https://dbus.freedesktop.org/doc/dbus-specification.html#message-protocol
struct DBusMessage {
    /// The message types of the specification.
    enum Kind: UInt8 {
        case methodCall = 1, methodReturn = 2, error = 3, signal = 4
    }

    /// Why a message could not be read.
    struct Malformed: Error {
        let reason: String
    }

    let kind: Kind
    /// The sender's number for the message.
    let serial: UInt32
    /// For a reply or an error: the serial of the call it answers.
    let replySerial: UInt32?
    /// For an error: its name (`org.freedesktop.DBus.Error.ServiceUnknown`).
    let errorName: String?
    /// The body's type signature (`""` for none).
    let signature: String
    /// How many file descriptors came with the message.
    let unixFDCount: Int
    /// The body's bytes, in the sender's byte order (``bigEndian``).
    let body: [UInt8]
    let bigEndian: Bool

    /// The longest message read: far more than any answer asked for here, far less than the
    /// specification's 128 MiB.
    static let maximumLength = 1 << 20

    /// The bytes of a method call to `member` of `interface` at `path` of `destination`, its
    /// arguments all strings; `noAutoStart` asks the bus not to start the service for it.
    static func methodCall(serial: UInt32, destination: String, path: String, interface: String, member: String,
                           arguments: [String] = [], noAutoStart: Bool = false) -> [UInt8] {
        var body = Writer()
        for argument in arguments { body.string(argument) }
        var fields = Writer()
        fields.field(1, "o", path)
        fields.field(2, "s", interface)
        fields.field(3, "s", member)
        fields.field(6, "s", destination)
        if !arguments.isEmpty { fields.field(8, "g", String(repeating: "s", count: arguments.count)) }
        var message = Writer()
        message.bytes = [UInt8(ascii: "l"), Kind.methodCall.rawValue, noAutoStart ? 0x2 : 0, 1]
        message.uint32(UInt32(body.bytes.count))
        message.uint32(serial)
        message.uint32(UInt32(fields.bytes.count))
        message.bytes += fields.bytes
        message.align(8)
        return message.bytes + body.bytes
    }

    /// The length of the message that starts `bytes`, once its first 16 bytes are there
    /// (`nil` before); throws for a length no message of ours can have.
    static func length(startingAt bytes: ArraySlice<UInt8>) throws(Malformed) -> Int? {
        guard bytes.count >= 16 else { return nil }
        let reader = try Reader(bytes.prefix(16))
        let body = Int(reader.uint32(at: 4)), fields = Int(reader.uint32(at: 12))
        guard body <= maximumLength, fields <= maximumLength else { throw Malformed(reason: "a message of more than 1 MiB") }
        let length = (16 + fields + 7) / 8 * 8 + body
        guard length <= maximumLength else { throw Malformed(reason: "a message of more than 1 MiB") }
        return length
    }

    /// Reads one whole message (as long as ``length(startingAt:)`` said).
    init(_ bytes: ArraySlice<UInt8>) throws(Malformed) {
        var reader = try Reader(bytes)
        guard let kind = Kind(rawValue: bytes[bytes.startIndex + 1]) else { throw Malformed(reason: "an unknown message type") }
        let bodyLength = Int(reader.uint32(at: 4))
        let fieldsEnd = 16 + Int(reader.uint32(at: 12))
        reader.offset = 16
        var replySerial: UInt32?, errorName: String?, signature = "", unixFDs = 0
        while reader.offset < fieldsEnd {
            try reader.align(8)
            let code = try reader.byte()
            let type = try reader.signature()
            switch (code, type) {
            case (4, "s"): errorName = try reader.string()
            case (5, "u"): replySerial = try reader.uint32()
            case (8, "g"): signature = try reader.signature()
            case (9, "u"): unixFDs = Int(try reader.uint32())
            default: try reader.skip(type)
            }
        }
        guard reader.offset == fieldsEnd else { throw Malformed(reason: "header fields that overrun their array") }
        let bodyStart = (fieldsEnd + 7) / 8 * 8
        guard bodyStart + bodyLength == bytes.count else { throw Malformed(reason: "a body of the wrong length") }
        self.kind = kind
        serial = reader.uint32(at: 8)
        self.replySerial = replySerial
        self.errorName = errorName
        self.signature = signature
        unixFDCount = unixFDs
        body = Array(bytes.dropFirst(bodyStart))
        bigEndian = reader.bigEndian
    }

    /// The body's first value when the body starts with a string (an error's message).
    var firstString: String? {
        guard signature.hasPrefix("s") else { return nil }
        var reader = Reader(body[...], bigEndian: bigEndian)
        return try? reader.string()
    }

    /// The body's first value when it is a file descriptor's index (`h`) or a `UINT32`.
    var firstUInt32: UInt32? {
        guard signature.hasPrefix("h") || signature.hasPrefix("u") else { return nil }
        var reader = Reader(body[...], bigEndian: bigEndian)
        return try? reader.uint32()
    }

    /// Marshals values little-endian, each aligned as the specification says (offsets count
    /// from the writer's start, which the caller puts on an 8-byte boundary).
    private struct Writer {
        var bytes: [UInt8] = []

        mutating func align(_ boundary: Int) {
            while bytes.count % boundary != 0 { bytes.append(0) }
        }

        mutating func uint32(_ value: UInt32) {
            align(4)
            withUnsafeBytes(of: value.littleEndian) { bytes += $0 }
        }

        mutating func string(_ value: String) {
            uint32(UInt32(value.utf8.count))
            bytes += value.utf8
            bytes.append(0)
        }

        mutating func signature(_ value: String) {
            bytes.append(UInt8(value.utf8.count))
            bytes += value.utf8
            bytes.append(0)
        }

        /// A header field: its code and a variant of `type` (`s`, `o` or `g`).
        mutating func field(_ code: UInt8, _ type: String, _ value: String) {
            align(8)
            bytes.append(code)
            signature(type)
            if type == "g" { signature(value) } else { string(value) }
        }
    }

    /// Reads values of either byte order, each aligned from the start of what it reads (a
    /// message, or a body, which starts on an 8-byte boundary), never past its end.
    private struct Reader {
        let bytes: ArraySlice<UInt8>
        let bigEndian: Bool
        var offset = 0

        /// A reader of a message, whose first byte says its byte order.
        init(_ bytes: ArraySlice<UInt8>) throws(Malformed) {
            switch bytes.first {
            case UInt8(ascii: "l"): self.init(bytes, bigEndian: false)
            case UInt8(ascii: "B"): self.init(bytes, bigEndian: true)
            default: throw Malformed(reason: "an unknown byte order")
            }
        }

        init(_ bytes: ArraySlice<UInt8>, bigEndian: Bool) {
            self.bytes = bytes
            self.bigEndian = bigEndian
        }

        /// The `UINT32` at `place`, which the caller knows is there.
        func uint32(at place: Int) -> UInt32 {
            let start = bytes.startIndex + place
            let value = bytes[start..<start + 4].reversed().reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
            return bigEndian ? value.byteSwapped : value
        }

        mutating func align(_ boundary: Int) throws(Malformed) {
            let aligned = (offset + boundary - 1) / boundary * boundary
            try need(aligned - offset)
            offset = aligned
        }

        private func need(_ count: Int) throws(Malformed) {
            guard count >= 0, offset + count <= bytes.count else { throw Malformed(reason: "a value past the message's end") }
        }

        mutating func byte() throws(Malformed) -> UInt8 {
            try need(1)
            defer { offset += 1 }
            return bytes[bytes.startIndex + offset]
        }

        mutating func uint32() throws(Malformed) -> UInt32 {
            try align(4)
            try need(4)
            defer { offset += 4 }
            return uint32(at: offset)
        }

        /// `count` bytes and the zero after them, as text.
        private mutating func text(_ count: Int) throws(Malformed) -> String {
            try need(count + 1)
            let start = bytes.startIndex + offset
            guard bytes[start + count] == 0 else { throw Malformed(reason: "a string without its ending zero") }
            offset += count + 1
            return String(decoding: bytes[start..<start + count], as: UTF8.self)
        }

        mutating func string() throws(Malformed) -> String {
            try text(Int(try uint32()))
        }

        mutating func signature() throws(Malformed) -> String {
            try text(Int(try byte()))
        }

        /// Passes over a value of a basic type (header fields are of no other).
        mutating func skip(_ type: String) throws(Malformed) {
            switch type {
            case "y": _ = try byte()
            case "n", "q":
                try align(2)
                try need(2)
                offset += 2
            case "b", "i", "u", "h": _ = try uint32()
            case "x", "t", "d":
                try align(8)
                try need(8)
                offset += 8
            case "s", "o": _ = try string()
            case "g": _ = try signature()
            default: throw Malformed(reason: "a header field of type \(type)")
            }
        }
    }
}
