import Testing
@testable import SyncAgentKit

/// Where a run reads and writes, from the options and the environment.
struct LocationsTests {
    let environment = ["HOME": "/home/ann", "XDG_RUNTIME_DIR": "/run/user/1000"]

    func locations(manifest: String? = nil, state: String? = nil, environment: [String: String]? = nil) -> Locations {
        Locations(manifest: manifest, stateDirectory: state, environment: environment ?? self.environment, workingDirectory: "/work") { _ in nil }
    }

    @Test func defaultsFollowTheXDGDirectories() {
        let defaults = locations()
        #expect(defaults.manifest == "/home/ann/.config/syncagent/manifest.yaml")
        #expect(defaults.manifestIsDefault)
        #expect(defaults.stateDirectory == "/home/ann/.local/state/syncagent")
        #expect(defaults.lockPath == "/home/ann/.local/state/syncagent/agent.lock")
        #expect(defaults.controlSocketPath == "/run/user/1000/syncagent/control.sock")
    }

    @Test func aRelativeStateFolderIsTakenFromTheWorkingFolderAndTheManifestPathIsKeptAsGiven() {
        let given = locations(manifest: "m.yaml", state: "state")
        #expect(given.manifest == "m.yaml")
        #expect(!given.manifestIsDefault)
        #expect(given.stateDirectory == "/work/state")
    }

    @Test func agentsOnDifferentStateFoldersNeverShareASocket() {
        let first = locations(state: "/tmp/one").controlSocketPath
        let second = locations(state: "/tmp/two").controlSocketPath
        #expect(first != second)
        #expect(first.hasPrefix("/run/user/1000/syncagent/control-") && first.hasSuffix(".sock"))
        #expect(first == locations(state: "/tmp/one").controlSocketPath, "the same folder gives the same socket every time")
    }

    @Test func withoutARuntimeFolderTheSocketIsInTheStateFolder() {
        #expect(locations(state: "/tmp/one", environment: ["HOME": "/home/ann"]).controlSocketPath == "/tmp/one/control.sock")
        #expect(locations(environment: ["HOME": "/home/ann", "XDG_RUNTIME_DIR": "relative"]).runtimeDirectory == nil)
    }
}
