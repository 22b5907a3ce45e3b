import Foundation

/// A TCP port on 127.0.0.1 that takes connections and never says a word: the kernel
/// completes each connection from the listen backlog, and nothing ever reads or answers.
/// A TLS client's handshake, an HTTP client's request, a proxy client's request all hang
/// there until the client's own timeout.
public final class SilentListener: Sendable {
    public let port: Int
    private let socketDescriptor: Int32

    public init() throws {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let listening = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, length) == 0 && listen(descriptor, 64) == 0 && getsockname(descriptor, $0, &length) == 0
            }
        }
        guard descriptor >= 0, listening else {
            let reason = String(cString: strerror(errno))
            if descriptor >= 0 { close(descriptor) }
            throw TestSupportError("cannot listen on 127.0.0.1: \(reason)")
        }
        socketDescriptor = descriptor
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    deinit {
        close(socketDescriptor)
    }
}
