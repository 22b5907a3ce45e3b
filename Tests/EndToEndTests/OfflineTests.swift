import Foundation
import Testing
import TestSupport

/// The agent where names do not resolve: in a network namespace of its own whose default
/// route leads nowhere (so GIO's netlink monitor says the network is up) and whose resolver
/// answers nothing. Offline is a condition, not a failure: one log line when it begins, one
/// when it ends, no failure and no notification, and a change of network ends it at once.
@Suite(.serialized, .enabled(if: NetworkNamespace.isAvailable, Comment(rawValue: NetworkNamespace.unavailableReason)))
struct OfflineTests {
    @Test func namesThatDoNotResolveAreWaitedForQuietlyAndANetworkChangeEndsTheWait() throws {
        let namespace = try NetworkNamespace()
        defer { namespace.remove() }
        try namespace.addDeadEndDefaultRoute()
        let folder = try TemporaryDirectory(prefix: "offline")
        let served = folder.appending("www")
        try FileManager.default.createDirectory(atPath: served, withIntermediateDirectories: true)
        let data = FileHandle(forReadingAtPath: "/dev/urandom")!.readData(ofLength: 200_000)
        try data.write(to: URL(fileURLWithPath: served + "/guide.pdf"))
        // The server listens inside the namespace: its loopback is the only place it can be reached.
        let server = try ChildProcess(
            namespace.commandPrefix[0],
            arguments: Array(namespace.commandPrefix.dropFirst()) + ["/usr/bin/python3", "-u", "-m", "http.server", "--bind", "127.0.0.1", "--directory", served, "8080"],
            standardError: .file(folder.appending("server.log"))
        )
        defer { server.stop() }
        #expect(try server.readLine(timeout: .seconds(20)).hasPrefix("Serving HTTP on"))

        let bus = try NotificationBus()
        let systemBus = try PrivateSystemBus()
        var environment = bus.clientEnvironment
        environment["DBUS_SYSTEM_BUS_ADDRESS"] = systemBus.address
        environment["HOME"] = folder.appending("home")
        let manifest = folder.appending("manifest.yaml")
        let destination = folder.appending("Guides")
        try "destination: \(destination)\nfiles:\n  - title: Guide\n    url: http://files.syncagent.test:8080/guide.pdf\n"
            .write(toFile: manifest, atomically: true, encoding: .utf8)
        let agent = Process()
        agent.executableURL = URL(fileURLWithPath: namespace.commandPrefix[0])
        agent.arguments = Array(namespace.commandPrefix.dropFirst())
            + [try BuiltProducts.executable(named: "syncagent"), "--manifest", manifest, "--state-dir", folder.appending("state")]
        agent.environment = environment
        let logPath = folder.appending("agent.log")
        _ = FileManager.default.createFile(atPath: logPath, contents: nil)
        agent.standardOutput = FileHandle(forWritingAtPath: logPath)
        agent.standardError = FileHandle(forWritingAtPath: logPath)
        try agent.run()
        defer {
            if agent.isRunning {
                kill(agent.processIdentifier, SIGKILL)
                agent.waitUntilExit()
            }
        }
        let log = { (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "" }
        let waitLine = "waiting for a network: server names do not resolve (cannot find files.syncagent.test:8080)"

        #expect(eventually(within: .seconds(10)) { log().contains(waitLine) }, "\(log())")
        // Long enough for the engine's own retries (1 s, 2 s…) to have shown, had they run.
        usleep(4_000_000)
        #expect(log().components(separatedBy: "waiting for a network").count == 2, "\(log())")
        #expect(!log().contains("failed"), "\(log())")
        #expect(!log().contains("retrying"), "\(log())")
        #expect(try bus.recordedNotifications().isEmpty)

        // The name resolves now, and the network changes: the agent tries at once.
        try namespace.setHosts("127.0.0.1 localhost files.syncagent.test\n")
        try namespace.run(["route", "add", "10.213.78.0/24", "dev", "dead0"])
        #expect(eventually(within: .seconds(10)) { FileManager.default.contents(atPath: destination + "/guide.pdf") == data }, "\(log())")
        #expect(eventually(within: .seconds(5)) { log().contains("the network is back; transfers go on") }, "\(log())")
        #expect(eventually(within: .seconds(5)) { (try? bus.recordedNotifications().count) == 1 })
        #expect(try bus.recordedNotifications().first?.summary == "All files have been downloaded!")
        #expect(log().components(separatedBy: "waiting for a network").count == 2, "\(log())")
        kill(agent.processIdentifier, SIGTERM)
        agent.waitUntilExit()
    }
}
