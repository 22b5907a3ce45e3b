import Foundation

/// A named network namespace (`ip netns add`) for one test, with a loopback that is up and
/// nothing else: a place where names cannot resolve and no packet leaves the machine.
///
/// `ip netns exec` bind-mounts `/etc/netns/NAME/hosts` and `resolv.conf` over the ones in
/// `/etc` for what it runs: ``setHosts(_:)`` and ``setResolverConfiguration(_:)`` write those,
/// in place, so a running program sees a change at its next lookup. ``remove()`` (or the last
/// reference going away) deletes the namespace and its `/etc/netns` folder.
///
/// Needs root; ``isAvailable`` says whether this process may.
public final class NetworkNamespace: Sendable {
    /// The namespace's name, unique to this process and call.
    public let name: String
    /// Its folder of replacement `/etc` files.
    public let etcFolder: String

    /// Whether this process may create namespaces and run in them: it runs as root, `ip` is
    /// installed, and `/` is a mount point. `ip -n` and `ip netns exec` make `/` a slave mount
    /// in a mount namespace of their own, which the kernel refuses where `/` is no mount point
    /// ("mount --make-rslave /" failed: Invalid argument) — in a chroot, such as the fresh
    /// Debian root `fresh-root-ci` runs the tests in. There is no way around that from inside
    /// (a bind of `/` onto itself does not become the chroot's root), so those tests skip.
    public static var isAvailable: Bool {
        geteuid() == 0 && FileManager.default.isExecutableFile(atPath: ip) && rootIsMountPoint
    }
    /// Why ``isAvailable`` is false, for a skipped test.
    public static let unavailableReason = "a network namespace needs root, iproute2's ip, and / as a mount point (not a chroot)"

    /// Whether `/` is a mount point of this process's view (`/proc/self/mountinfo` lists it).
    private static var rootIsMountPoint: Bool {
        guard let text = try? String(contentsOfFile: "/proc/self/mountinfo", encoding: .utf8) else { return false }
        return text.split(separator: "\n").contains { $0.split(separator: " ").dropFirst(4).first == "/" }
    }

    private static let ip = "/usr/sbin/ip"

    /// Creates the namespace with its loopback up, an empty hosts file (but `localhost`) and a
    /// resolver on 127.0.0.1 where nothing listens, so every look-up of a name fails at once.
    public init() throws {
        name = "syncagent-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        etcFolder = "/etc/netns/\(name)"
        try runTool(Self.ip, ["netns", "add", name])
        try run(["link", "set", "lo", "up"])
        try FileManager.default.createDirectory(atPath: etcFolder, withIntermediateDirectories: true)
        try setHosts("127.0.0.1 localhost\n::1 localhost\n")
        try setResolverConfiguration("nameserver 127.0.0.1\noptions timeout:1 attempts:1\n")
    }

    deinit {
        remove()
    }

    /// Runs `ip -n NAME arguments…`, e.g. `["route", "add", …]`.
    public func run(_ arguments: [String]) throws {
        try runTool(Self.ip, ["-n", name] + arguments)
    }

    /// Gives the namespace a default route into a link whose other end is in the namespace
    /// too, where packets vanish (nothing answers ARP, nothing forwards): a network that counts
    /// as up (GIO's netlink monitor says available) and reaches nothing. A veth pair, since
    /// the kernel may have no dummy links.
    public func addDeadEndDefaultRoute() throws {
        try run(["link", "add", "dead0", "type", "veth", "peer", "name", "dead1"])
        try run(["addr", "add", "10.213.77.1/24", "dev", "dead0"])
        try run(["link", "set", "dead1", "up"])
        try run(["link", "set", "dead0", "up"])
        try run(["route", "add", "default", "dev", "dead0"])
    }

    /// The words to put before a command line so that it runs in the namespace.
    public var commandPrefix: [String] { [Self.ip, "netns", "exec", name] }

    /// Rewrites the namespace's hosts file in place (the bind mount keeps pointing at it).
    public func setHosts(_ text: String) throws {
        try overwrite(etcFolder + "/hosts", with: text)
    }

    /// Rewrites the namespace's `resolv.conf` in place.
    public func setResolverConfiguration(_ text: String) throws {
        try overwrite(etcFolder + "/resolv.conf", with: text)
    }

    /// Deletes the namespace and its `/etc/netns` folder; doing it twice is harmless.
    public func remove() {
        _ = try? runTool(Self.ip, ["netns", "delete", name])
        try? FileManager.default.removeItem(atPath: etcFolder)
    }

    private func overwrite(_ path: String, with text: String) throws {
        if !FileManager.default.fileExists(atPath: path) {
            _ = FileManager.default.createFile(atPath: path, contents: nil)
        }
        let handle = try FileHandle(forUpdating: URL(fileURLWithPath: path))
        defer { try? handle.close() }
        try handle.truncate(atOffset: 0)
        try handle.write(contentsOf: Data(text.utf8))
    }
}
