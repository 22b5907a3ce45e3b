internal import CLinux
import Glibc

/// Finds the TCP socket of a connection by its two ports, among this process's descriptors.
///
/// Looking through every descriptor (`/proc/self/fd`, one `getsockname(2)` each) costs about
/// 30 µs; done for every file, 10,000 small files would spend a third of a second on it. So
/// every TCP socket found is remembered with its socket cookie (`SO_COOKIE`, which the kernel
/// never gives two sockets), and a remembered one is only checked again by its cookie: one
/// `getsockopt(2)` per transfer, where asking its two ports again took two calls. curl
/// connects a socket once and closes it at the connection's end, so the same cookie means
/// the same connection, the same ports; what the cookie tells is whether the descriptor was
/// closed and its number reused since. A
/// new look happens once per new connection, which cost a TCP handshake anyway. Lives on the
/// engine's thread.
final class ConnectionSockets {
    /// The two ports of a TCP connection, as seen from this end.
    struct Ports: Hashable {
        var local: Int
        var remote: Int
    }

    /// A socket found, and its cookie (`nil` where the kernel has none: its ports are
    /// checked instead).
    private struct Found {
        var descriptor: Int32
        var cookie: UInt64?
    }

    private var known: [Ports: Found] = [:]

    /// The socket whose ends are `ports`, or `nil` when this process has none.
    func socket(for ports: Ports) -> Int32? {
        if let found = known[ports], Self.isStill(found, at: ports) { return found.descriptor }
        lookThroughDescriptors()
        return known[ports]?.descriptor
    }

    /// Whether the remembered descriptor still holds the socket found there.
    private static func isStill(_ found: Found, at ports: Ports) -> Bool {
        guard let cookie = found.cookie else { return Self.ports(of: found.descriptor) == ports }
        return Self.cookie(of: found.descriptor) == cookie
    }

    private func lookThroughDescriptors() {
        known = [:]
        guard let folder = opendir("/proc/self/fd") else { return }
        defer { closedir(folder) }
        while let entry = readdir(folder) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if let descriptor = Int32(name), let ports = Self.ports(of: descriptor) {
                known[ports] = Found(descriptor: descriptor, cookie: Self.cookie(of: descriptor))
            }
        }
    }

    /// The socket's cookie (Linux 4.12 and later), `nil` when it has none or is no socket.
    static func cookie(of socket: Int32) -> UInt64? {
        var cookie: UInt64 = 0
        var length = socklen_t(MemoryLayout<UInt64>.size)
        guard getsockopt(socket, SOL_SOCKET, syncagent_SO_COOKIE, &cookie, &length) == 0, length == MemoryLayout<UInt64>.size else { return nil }
        return cookie
    }

    /// The ports of a connected IPv4 or IPv6 socket; `nil` for any other descriptor.
    static func ports(of socket: Int32) -> Ports? {
        guard let local = port(of: socket, getsockname), let remote = port(of: socket, getpeername) else { return nil }
        return Ports(local: local, remote: remote)
    }

    /// The port of one end of a socket (`getsockname` or `getpeername`), IPv4 or IPv6.
    private static func port(of socket: Int32, _ name: (Int32, UnsafeMutablePointer<sockaddr>, UnsafeMutablePointer<socklen_t>) -> Int32) -> Int? {
        var address = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let found = withUnsafeMutablePointer(to: &address) { storage in
            storage.withMemoryRebound(to: sockaddr.self, capacity: 1) { name(socket, $0, &length) == 0 }
        }
        guard found else { return nil }
        let family = Int32(address.ss_family)
        return withUnsafeBytes(of: &address) { bytes -> Int? in
            switch family {
            // sin_port and sin6_port both follow the 2-byte family, in network byte order.
            case AF_INET, AF_INET6: Int(bytes[2]) << 8 | Int(bytes[3])
            default: nil
            }
        }
    }
}
