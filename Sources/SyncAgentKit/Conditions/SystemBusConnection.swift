import Glibc

/// One short-lived connection to the system bus, without GIO: a Unix socket, the `EXTERNAL`
/// authentication (the kernel tells the bus who we are), file descriptors passed, `Hello`,
/// then calls whose replies are awaited one at a time. Every wait ends at ``deadline``: a bus
/// that never answers must not hold a batch. Not thread-safe; closed in `deinit`.
/// - SeeAlso: https://dbus.freedesktop.org/doc/dbus-specification.html#auth-protocol
final class SystemBusConnection {
    /// Why a call failed: the bus cannot be reached; it said or did something else than a
    /// bus does, or not in time; or the call was answered with an error (its name, such as
    /// `org.freedesktop.DBus.Error.ServiceUnknown`, and its message).
    enum Failure: Error {
        case unreachable(String)
        case broken(String)
        case answered(name: String, message: String?)
    }

    private let socket: Int32
    private let deadline: ContinuousClock.Instant
    /// Bytes read but not yet taken as a line or a message.
    private var buffer: [UInt8] = []
    /// Descriptors received but not yet taken by their message, in order.
    private var descriptors: [Int32] = []
    private var nextSerial: UInt32 = 1

    /// Connects to the first socket of `address` that answers and authenticates, all before
    /// `deadline`.
    init(address: DBusAddress, deadline: ContinuousClock.Instant) throws(Failure) {
        self.deadline = deadline
        var reasons: [String] = []
        var connected: Int32?
        for target in address.sockets {
            let fd = Glibc.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            guard fd >= 0 else { throw .unreachable("socket: \(String(cString: strerror(errno)))") }
            let result = target.withSocketAddress { connect(fd, $0, $1) }
            if result == 0 {
                connected = fd
                break
            }
            reasons.append("\(target.name): \(result == nil ? "name too long" : String(cString: strerror(errno)))")
            close(fd)
        }
        guard let connected else {
            throw .unreachable(reasons.isEmpty ? "no Unix socket in its address" : reasons.joined(separator: "; "))
        }
        socket = connected
        try authenticate()
    }

    deinit {
        close(socket)
        for fd in descriptors { close(fd) }
    }

    /// `AUTH EXTERNAL` with our uid, then file descriptor passing, which logind's lock needs.
    private func authenticate() throws(Failure) {
        let uid = String(getuid()).utf8.map { byte in
            let digits = Array("0123456789abcdef".utf8)
            return String(decoding: [digits[Int(byte >> 4)], digits[Int(byte & 0xF)]], as: UTF8.self)
        }.joined()
        try send(Array("\0AUTH EXTERNAL \(uid)\r\n".utf8))
        let answer = try readLine()
        guard answer.hasPrefix("OK ") else { throw .broken("the bus refused us (\(answer))") }
        try send(Array("NEGOTIATE_UNIX_FD\r\n".utf8))
        let fds = try readLine()
        guard fds == "AGREE_UNIX_FD" else { throw .broken("the bus passes no file descriptors (\(fds))") }
        // BEGIN and Hello go with the first call: nothing comes back between them.
        pending = Array("BEGIN\r\n".utf8) + DBusMessage.methodCall(
            serial: takeSerial(), destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
            interface: "org.freedesktop.DBus", member: "Hello")
    }

    /// What goes out with the next call.
    private var pending: [UInt8] = []

    private func takeSerial() -> UInt32 {
        defer { nextSerial += 1 }
        return nextSerial
    }

    /// Calls `member` with string `arguments` and waits for its reply: the message and the
    /// descriptors that came with it, which the caller closes.
    func call(destination: String, path: String, interface: String, member: String, arguments: [String],
              noAutoStart: Bool) throws(Failure) -> (DBusMessage, [Int32]) {
        let serial = takeSerial()
        try send(pending + DBusMessage.methodCall(serial: serial, destination: destination, path: path, interface: interface,
                                                 member: member, arguments: arguments, noAutoStart: noAutoStart))
        pending = []
        while true {
            let (message, fds) = try receive()
            guard message.replySerial == serial, message.kind == .methodReturn || message.kind == .error else {
                // Hello's reply, the NameAcquired signal, and whatever else: not ours to keep.
                for fd in fds { close(fd) }
                continue
            }
            if message.kind == .error {
                for fd in fds { close(fd) }
                throw .answered(name: message.errorName ?? "an unnamed error", message: message.firstString)
            }
            return (message, fds)
        }
    }

    private func send(_ bytes: [UInt8]) throws(Failure) {
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes { Glibc.send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { throw .broken("writing to the bus: \(String(cString: strerror(errno)))") }
            sent += count
        }
    }

    /// One line of the authentication, without its `\r\n`.
    private func readLine() throws(Failure) -> String {
        while true {
            if let end = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = buffer[..<end]
                buffer.removeSubrange(...end)
                return String(decoding: line.last == UInt8(ascii: "\r") ? line.dropLast() : line, as: UTF8.self)
            }
            guard buffer.count < 4_096 else { throw .broken("the bus sent an endless line") }
            try fill()
        }
    }

    /// The next whole message and the descriptors it carries.
    private func receive() throws(Failure) -> (DBusMessage, [Int32]) {
        while true {
            let length: Int?
            do { length = try DBusMessage.length(startingAt: buffer[...]) } catch { throw .broken("the bus sent \(error.reason)") }
            if let length, buffer.count >= length {
                let message: DBusMessage
                do { message = try DBusMessage(buffer[..<length]) } catch { throw .broken("the bus sent \(error.reason)") }
                buffer.removeSubrange(..<length)
                guard message.unixFDCount <= descriptors.count else { throw .broken("a message came without its descriptors") }
                let fds = Array(descriptors.prefix(message.unixFDCount))
                descriptors.removeFirst(message.unixFDCount)
                return (message, fds)
            }
            try fill()
        }
    }

    /// Waits, until the deadline, for more bytes (and the descriptors sent with them).
    private func fill() throws(Failure) {
        var poller = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
        while true {
            let left = deadline - .now
            guard left > .zero else { throw .broken("the bus did not answer in time") }
            let milliseconds = Int32(clamping: left.components.seconds * 1_000 + left.components.attoseconds / 1_000_000_000_000_000 + 1)
            let ready = poll(&poller, 1, milliseconds)
            if ready < 0, errno == EINTR { continue }
            guard ready >= 0 else { throw .broken("waiting for the bus: \(String(cString: strerror(errno)))") }
            if ready > 0 { break }
        }
        var chunk = [UInt8](repeating: 0, count: 4_096)
        // Room for the descriptors of one message: a cmsghdr and 16 of them.
        let controlLength = MemoryLayout<cmsghdr>.stride + 16 * MemoryLayout<Int32>.stride
        let control = UnsafeMutableRawPointer.allocate(byteCount: controlLength, alignment: MemoryLayout<cmsghdr>.alignment)
        defer { control.deallocate() }
        var (count, controlUsed, truncated) = (0, 0, false)
        repeat {
            count = chunk.withUnsafeMutableBytes { bytes in
                var vector = iovec(iov_base: bytes.baseAddress, iov_len: bytes.count)
                return withUnsafeMutablePointer(to: &vector) { vectorPointer in
                    var header = msghdr()
                    header.msg_iov = vectorPointer
                    header.msg_iovlen = 1
                    header.msg_control = control
                    header.msg_controllen = controlLength
                    let received = recvmsg(socket, &header, Int32(MSG_CMSG_CLOEXEC))
                    controlUsed = Int(header.msg_controllen)
                    truncated = header.msg_flags & Int32(MSG_CTRUNC) != 0
                    return received
                }
            }
        } while count < 0 && errno == EINTR
        takeDescriptors(control, length: count < 0 ? 0 : controlUsed)
        guard !truncated else { throw .broken("the bus sent more descriptors than expected") }
        guard count >= 0 else { throw .broken("reading from the bus: \(String(cString: strerror(errno)))") }
        guard count > 0 else { throw .broken("the bus closed the connection") }
        buffer += chunk[..<count]
    }

    /// Keeps the descriptors of each `SCM_RIGHTS` header in `control` (`length` bytes).
    private func takeDescriptors(_ control: UnsafeMutableRawPointer, length: Int) {
        let headerLength = MemoryLayout<cmsghdr>.stride
        var offset = 0
        while offset + headerLength <= length {
            let header = control.load(fromByteOffset: offset, as: cmsghdr.self)
            let size = Int(header.cmsg_len)
            guard size >= headerLength, offset + size <= length else { break }
            if header.cmsg_level == SOL_SOCKET, header.cmsg_type == Int32(SCM_RIGHTS) {
                for place in stride(from: offset + headerLength, to: offset + size, by: MemoryLayout<Int32>.stride) {
                    descriptors.append(control.load(fromByteOffset: place, as: Int32.self))
                }
            }
            // The next header starts on the next boundary of a size_t.
            offset += (size + MemoryLayout<Int>.stride - 1) / MemoryLayout<Int>.stride * MemoryLayout<Int>.stride
        }
    }
}
