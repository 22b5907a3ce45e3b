import Glibc
import Testing
@testable import SyncAgentKit

/// Finding a connection's socket by its ports, and not taking a descriptor whose number now
/// holds another socket.
struct ConnectionSocketsTests {
    /// A listening socket on 127.0.0.1 and its port.
    func listener() throws -> (Int32, Int) {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, length) == 0 && getsockname(socket, $0, &length) == 0 }
        }
        try #require(bound && listen(socket, 4) == 0)
        return (socket, Int(UInt16(bigEndian: address.sin_port)))
    }

    func connection(to port: Int) throws -> Int32 {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
        try #require(connected)
        return socket
    }

    @Test func aRemememberedSocketWhoseNumberNowHoldsAnotherIsNotTaken() throws {
        let (server, port) = try listener()
        defer { close(server) }
        let first = try connection(to: port)
        defer { close(first) }
        let firstPorts = try #require(ConnectionSockets.ports(of: first))
        let sockets = ConnectionSockets()
        #expect(sockets.socket(for: firstPorts) == first)
        #expect(sockets.socket(for: firstPorts) == first)

        let second = try connection(to: port)
        defer { close(second) }
        let secondPorts = try #require(ConnectionSockets.ports(of: second))
        // The first connection's number now holds the second connection.
        #expect(dup2(second, first) == first)
        #expect(sockets.socket(for: firstPorts) == nil)
        let found = try #require(sockets.socket(for: secondPorts))
        #expect(ConnectionSockets.ports(of: found) == secondPorts)
    }

    @Test func aSocketHasACookieAndAFileHasNone() throws {
        let (server, _) = try listener()
        defer { close(server) }
        #expect(ConnectionSockets.cookie(of: server) != nil)
        let file = open("/dev/null", O_RDONLY)
        defer { close(file) }
        #expect(ConnectionSockets.cookie(of: file) == nil)
    }
}
