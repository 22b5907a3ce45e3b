import Glibc
import Testing
import TestSupport
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

    @Test func everySpellingOfOneStateFolderFindsTheSameSocket() {
        let plain = locations(state: "/tmp/one").controlSocketPath
        #expect(locations(state: "/tmp/one/").controlSocketPath == plain)
        #expect(locations(state: "/tmp/./two/../one").controlSocketPath == plain)
        #expect(locations(state: "../tmp//one").controlSocketPath == plain, "relative to the working folder /work")
    }

    @Test func theDefaultStateFolderWrittenOutIsTheDefault() {
        let spelled = locations(state: "/home/ann/.local/state/syncagent/")
        #expect(spelled.stateIsDefault)
        #expect(spelled.controlSocketPath == "/run/user/1000/syncagent/control.sock")
    }

    @Test func aLinkToTheStateFolderFindsTheSameSocket() {
        let links = ["/home/ann/link": "/data/state"]
        func resolved(_ state: String) -> Locations {
            Locations(manifest: nil, stateDirectory: state, environment: environment, workingDirectory: "/work", resolveLinks: { path in
                links.first { path == $0.key || path.hasPrefix($0.key + "/") }.map { $0.value + path.dropFirst($0.key.count) } ?? path
            }) { _ in nil }
        }
        #expect(resolved("/home/ann/link").stateDirectory == "/data/state")
        #expect(resolved("/home/ann/link").controlSocketPath == resolved("/data/state").controlSocketPath)
    }

    @Test func realPathsResolveTheDeepestExistingFolder() throws {
        let root = try TemporaryDirectory()
        let real = root.path + "/real"
        #expect(mkdir(real, 0o700) == 0)
        #expect(symlink(real, root.path + "/link") == 0)
        let base = try #require(FileSystemPath.resolvingLinks(real))
        #expect(FileSystemPath.resolvingLinks(root.path + "/link") == base)
        #expect(FileSystemPath.resolvingLinks(root.path + "/link/not/yet") == base + "/not/yet")
        #expect(FileSystemPath.resolvingLinks("/") == "/")
    }

    @Test func withoutARuntimeFolderTheSocketIsInTheStateFolder() {
        #expect(locations(state: "/tmp/one", environment: ["HOME": "/home/ann"]).controlSocketPath == "/tmp/one/control.sock")
        #expect(locations(environment: ["HOME": "/home/ann", "XDG_RUNTIME_DIR": "relative"]).runtimeDirectory == nil)
    }
}
