import CCurl
import Glibc

extension CurlEasy {
    /// The socket of the connection the running transfer uses: the TCP socket of this process
    /// whose two ends are this transfer's local and remote ports. Ask from a callback, while
    /// the transfer holds the connection; `nil` when none is found.
    ///
    /// libcurl has no reliable way to say: `CURLINFO_ACTIVESOCKET` finds "the last connection"
    /// by an id that can belong to an older connection of a reused handle, one that another
    /// transfer may be using by now. The ports cannot be wrong: the socket it names is taken
    /// when its ports match (the usual case, a handle reusing its connection), else every open
    /// descriptor is looked at, one `getsockname(2)` each.
    /// - SeeAlso: https://curl.se/libcurl/c/CURLINFO_ACTIVESOCKET.html
    /// - SeeAlso: https://curl.se/libcurl/c/CURLINFO_LOCAL_PORT.html
    /// - SeeAlso: https://curl.se/libcurl/c/CURLINFO_PRIMARY_PORT.html
    var connectionSocket: Int32? {
        var localPort = 0
        var remotePort = 0
        guard syncagent_easy_getinfo_long(rawHandle, CURLINFO_LOCAL_PORT, &localPort) == CURLE_OK,
              syncagent_easy_getinfo_long(rawHandle, CURLINFO_PRIMARY_PORT, &remotePort) == CURLE_OK,
              localPort > 0, remotePort > 0
        else { return nil }
        if let named = activeSocket, Self.port(of: named, getsockname) == localPort, Self.port(of: named, getpeername) == remotePort {
            return named
        }
        guard let folder = opendir("/proc/self/fd") else { return nil }
        defer { closedir(folder) }
        while let entry = readdir(folder) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            guard let descriptor = Int32(name) else { continue }
            if Self.port(of: descriptor, getsockname) == localPort, Self.port(of: descriptor, getpeername) == remotePort {
                return descriptor
            }
        }
        return nil
    }

    /// What `CURLINFO_ACTIVESOCKET` says. It writes a `curl_socket_t` (an `int` on Linux)
    /// where the pointer points, so the storage is a pointer-sized word read as an `Int32`.
    private var activeSocket: Int32? {
        let word = UnsafeMutableRawPointer.allocate(byteCount: MemoryLayout<UnsafeMutableRawPointer?>.size, alignment: 8)
        defer { word.deallocate() }
        word.storeBytes(of: nil, as: UnsafeMutableRawPointer?.self)
        let slot = word.assumingMemoryBound(to: UnsafeMutableRawPointer?.self)
        guard syncagent_easy_getinfo_pointer(rawHandle, CURLINFO_ACTIVESOCKET, slot) == CURLE_OK else { return nil }
        let socket = word.load(as: Int32.self)
        return socket >= 0 ? socket : nil
    }

    /// The port of one end of a TCP socket (`getsockname` or `getpeername`), IPv4 or IPv6;
    /// `nil` for anything else.
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
