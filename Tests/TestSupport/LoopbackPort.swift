import Foundation

/// Free TCP ports on 127.0.0.1 for the servers tests start.
public enum LoopbackPort {
    /// A port the kernel just handed out and released, for a server to take at once. Another
    /// program may take it first; launchers retry with a new one when their server cannot bind.
    public static func free() throws -> Int {
        let socketDescriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(socketDescriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(socketDescriptor, $0, length) == 0 && getsockname(socketDescriptor, $0, &length) == 0
            }
        }
        guard bound else { throw TestSupportError("cannot find a free port: \(String(cString: strerror(errno)))") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
