import Glibc

/// Where a D-Bus bus listens, from an address as `DBUS_SYSTEM_BUS_ADDRESS` gives it
/// (`unix:path=/run/dbus/system_bus_socket`, or several separated by `;`, each tried in
/// order): the Unix sockets among them, by path or in the abstract namespace. Other
/// transports (`tcp:`, `unixexec:`…) are not used for the system bus and are skipped.
/// - SeeAlso: https://dbus.freedesktop.org/doc/dbus-specification.html#addresses
struct DBusAddress: Equatable {
    /// A socket's name: a file's path, or a name in Linux's abstract namespace.
    enum Socket: Equatable {
        case path(String)
        case abstract(String)
    }

    /// The sockets to try, in order.
    let sockets: [Socket]

    /// The system bus's address: `DBUS_SYSTEM_BUS_ADDRESS` when set, else the specification's
    /// default, as GDBus and sd-bus read it.
    static func systemBus(environment value: String? = getenv("DBUS_SYSTEM_BUS_ADDRESS").map { String(cString: $0) }) -> DBusAddress {
        DBusAddress(value.flatMap { $0.isEmpty ? nil : $0 } ?? "unix:path=/var/run/dbus/system_bus_socket")
    }

    init(_ text: String) {
        sockets = text.split(separator: ";").compactMap { entry -> Socket? in
            guard entry.hasPrefix("unix:") else { return nil }
            for pair in entry.dropFirst(5).split(separator: ",") {
                guard let equals = pair.firstIndex(of: "=") else { continue }
                let key = pair[..<equals]
                guard let value = Self.unescaped(pair[pair.index(after: equals)...]) else { return nil }
                if key == "path" { return .path(value) }
                if key == "abstract" { return .abstract(value) }
            }
            return nil
        }
    }

    /// A value with its `%XX` escapes undone; `nil` for a broken escape.
    private static func unescaped(_ value: Substring) -> String? {
        var bytes: [UInt8] = []
        var rest = value.utf8[...]
        while let byte = rest.popFirst() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard rest.count >= 2, let high = hexDigit(rest.removeFirst()), let low = hexDigit(rest.removeFirst()) else { return nil }
            bytes.append(high << 4 | low)
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func hexDigit(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}

extension DBusAddress.Socket {
    /// How an error names the socket: its path, or `@` and its abstract name (as `ss` shows
    /// it). Written out by hand: `String(describing:)` of an enum reflects on its type, some
    /// 2 million instructions the first time.
    var name: String {
        switch self {
        case .path(let path): path
        case .abstract(let name): "@" + name
        }
    }

    /// Calls `body` with the socket's `sockaddr_un` as `connect` takes it; `nil` when the
    /// name does not fit (107 bytes).
    func withSocketAddress<Result>(_ body: (UnsafePointer<sockaddr>, socklen_t) -> Result) -> Result? {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let (name, first) = switch self {
        case .path(let path): (Array(path.utf8), 0)
        case .abstract(let name): (Array(name.utf8), 1)
        }
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard first + name.count < capacity else { return nil }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: [UInt8](repeating: 0, count: first) + name)
        }
        // A path ends at its zero; an abstract name is as long as the length says.
        let length = MemoryLayout<sockaddr_un>.offset(of: \.sun_path)! + first + name.count + (first == 0 ? 1 : 0)
        return withUnsafePointer(to: address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(length)) }
        }
    }
}
