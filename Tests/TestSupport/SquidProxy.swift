import Foundation

/// A real squid from Debian (`/usr/sbin/squid`) as a caching forward proxy on 127.0.0.1 on a
/// free port, with its own configuration, memory-only cache and logs in a temporary folder.
///
/// Its cache keeps any response with a `Last-Modified` fresh for an hour (a
/// `refresh_pattern`), as a company proxy does by heuristic, so a test can show a client
/// being answered from a copy the origin has since changed. Each request is logged in squid's
/// native format: ``requests()`` gives the result codes (`TCP_MEM_HIT/200`,
/// `TCP_REFRESH_MODIFIED/200`…).
public final class SquidProxy: Sendable {
    public let port: Int
    private let directory: TemporaryDirectory
    private let process: ChildProcess

    /// Starts squid.
    public init() throws {
        directory = try TemporaryDirectory(prefix: "squid")
        // Run as root, squid drops to the "proxy" user, which must write its logs here.
        guard let user = getpwnam("proxy") else { throw TestSupportError("squid's user \"proxy\" does not exist") }
        chown(directory.path, user.pointee.pw_uid, user.pointee.pw_gid)
        do {
            (port, process) = try LocalPort.startServer("squid", timeout: .seconds(20)) { [directory] port in
                try Self.configuration(prefix: directory.path, port: port)
                    .write(toFile: directory.appending("squid.conf"), atomically: true, encoding: .utf8)
                // Squid keeps shared memory in /dev/shm, which its "proxy" user may not write
                // everywhere (a chroot's /dev/shm is a plain root folder): it gets a private one,
                // in a mount namespace whose mounts never reach the machine's. In a chroot "/"
                // is no mount point, so /dev is the one made private there.
                let squid = "exec /usr/sbin/squid -N -f '\(directory.appending("squid.conf"))'"
                let privateShm = "{ mount --make-rprivate / 2>/dev/null || mount --make-rprivate /dev; } && "
                    + "mount -t tmpfs -o mode=1777,size=64m syncagent-squid-shm /dev/shm && "
                return try ChildProcess(
                    "/usr/bin/unshare", arguments: ["--mount", "--propagation", "unchanged", "/bin/sh", "-c", privateShm + squid],
                    environment: ["PATH": "/usr/sbin:/usr/bin:/bin"], standardError: .file(directory.appending("stderr.log"))
                )
            } stop: { $0.stop() } failure: { [directory] in
                Self.log("stderr.log", in: directory) + Self.log("cache.log", in: directory)
            }
        } catch {
            directory.remove()
            throw error
        }
    }

    deinit {
        stop()
    }

    /// `http://127.0.0.1:PORT`, for a client's proxy setting.
    public var url: String { "http://127.0.0.1:\(port)" }

    /// The result code of each request squid has logged, oldest first, with its URL:
    /// `("TCP_MEM_HIT/200", "http://127.0.0.1:8080/a.pdf")`.
    public func requests() -> [(result: String, url: String)] {
        log("access.log").split(separator: "\n").compactMap { line in
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            // The start-up probe's connection, closed without a request, is logged as an error.
            guard fields.count > 6, !fields[6].hasPrefix("error:") else { return nil }
            return (String(fields[3]), String(fields[6]))
        }
    }

    /// The logged requests once there are at least `count` of them (squid logs a request
    /// after its client has the response), or whatever is logged after five seconds.
    public func requests(count: Int) -> [(result: String, url: String)] {
        logged(atLeast: count, within: .seconds(5)) { requests() }
    }

    /// Kills squid and its helpers and deletes its folder; doing it twice is harmless.
    public func stop() {
        process.stop()
        directory.remove()
    }

    private func log(_ name: String) -> String { Self.log(name, in: directory) }

    private static func log(_ name: String, in directory: TemporaryDirectory) -> String {
        (try? String(contentsOfFile: directory.appending(name), encoding: .utf8)) ?? ""
    }

    private static func configuration(prefix: String, port: Int) -> String {
        """
        http_port 127.0.0.1:\(port)
        pid_filename \(prefix)/squid.pid
        cache_log \(prefix)/cache.log
        access_log stdio:\(prefix)/access.log
        cache_store_log none
        buffered_logs off
        coredump_dir \(prefix)
        cache_mem 64 MB
        maximum_object_size_in_memory 16 MB
        cache_effective_user proxy
        pinger_enable off
        shutdown_lifetime 0 seconds
        visible_hostname syncagent-test
        acl loopback src 127.0.0.1
        http_access allow loopback
        http_access deny all
        refresh_pattern . 60 100% 60
        """
    }
}
