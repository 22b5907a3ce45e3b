import Foundation

/// Ports on 127.0.0.1 for the servers tests start.
public enum LocalPort {
    /// A port the kernel just handed out and released, for a server to take at once.
    public static func free() throws -> Int {
        let socketDescriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(socketDescriptor) }
        var address = loopback(port: 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(socketDescriptor, $0, length) == 0 && getsockname(socketDescriptor, $0, &length) == 0
            }
        }
        guard bound else { throw TestSupportError("cannot find a free port: \(String(cString: strerror(errno)))") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// Waits until something accepts connections on `port`, for at most `timeout` and while
    /// `alive` holds; `false` when nothing did.
    public static func waitUntilListening(_ port: Int, timeout: Duration = .seconds(10), while alive: () -> Bool = { true }) -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline, alive() {
            if canConnect(port) { return true }
            usleep(20_000)
        }
        return false
    }

    /// Starts a server on a free port: `launch` writes its configuration for the port and
    /// starts it, and it counts as started once the port accepts connections. Another program
    /// may take a free port first, so up to five ports are tried; after each failure `stop`
    /// ends the process and `failure` says what the server logged.
    public static func startServer<Server>(
        _ name: String,
        timeout: Duration = .seconds(10),
        launch: (_ port: Int) throws -> Server,
        isRunning: (Server) -> Bool = { _ in true },
        stop: (Server) -> Void,
        failure: () -> String
    ) throws -> (port: Int, server: Server) {
        var lastFailure = ""
        for _ in 0..<5 {
            let port = try free()
            let server = try launch(port)
            if waitUntilListening(port, timeout: timeout, while: { isRunning(server) }) { return (port, server) }
            stop(server)
            lastFailure = failure()
        }
        throw TestSupportError("\(name) did not start: " + lastFailure)
    }

    private static func canConnect(_ port: Int) -> Bool {
        let socketDescriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(socketDescriptor) }
        var address = loopback(port: port)
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(socketDescriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
    }

    private static func loopback(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        return address
    }
}
