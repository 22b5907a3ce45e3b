import Foundation
import Testing
import TestSupport

/// `syncagent --once` with the proxy the environment names, as a user sets it: a proxy that
/// is down is named as the proxy, not mistaken for the server behind it.
struct ProxyEnvironmentTests {
    @Test func aDeadProxyFromHTTPProxyIsNamedAsTheProxy() throws {
        let server = try FaultServer()
        let folder = try TemporaryDirectory(prefix: "proxy-e2e")
        let closed = try LocalPort.free()
        try server.serve("/guide.pdf", Data(count: 1_000))
        var environment = SyncAgentProcess.homeEnvironment(NotificationBus.environmentWithoutSessionBus(runtimeDirectory: folder.path), in: folder)
        for name in ["https_proxy", "HTTP_PROXY", "HTTPS_PROXY", "all_proxy", "ALL_PROXY", "no_proxy", "NO_PROXY"] {
            environment[name] = nil
        }
        environment["http_proxy"] = "http://127.0.0.1:\(closed)"
        let manifest = folder.appending("manifest.yaml")
        try """
            destination: \(folder.appending("Guides"))
            notify: false
            retry: { attempts: 1 }
            files:
              - title: Guide
                url: \(server.url("/guide.pdf"))

            """.write(toFile: manifest, atomically: true, encoding: .utf8)

        let run = try SyncAgentProcess(environment: environment, folder: folder)
            .run(["--once", "--manifest", manifest, "--state-dir", folder.appending("state")])
        #expect(run.status != 0)
        #expect(run.standardOutput.contains("Guide: cannot connect to the proxy 127.0.0.1:\(closed) ("))
        #expect(server.requests(for: "/guide.pdf").isEmpty)
    }
}
