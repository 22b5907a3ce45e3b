import Testing
@testable import SyncAgentKit

/// `notify`: `true`/`false`, or the mapping form `{ enabled: …, sound: … }`.
struct ManifestNotifyTests {
    private func load(_ notify: String) throws -> Manifest {
        try ManifestLoader(context: ManifestErrorTests.context).load(Array("notify: \(notify)\nfiles: []\n".utf8))
    }

    private func errors(_ notify: String) -> [String] {
        let error = #expect(throws: InvalidManifest.self) { try load(notify) }
        return error?.errors.map(\.description) ?? []
    }

    @Test func theBooleanFormTurnsNotificationsOnOrOffWithSoundLeftOn() throws {
        #expect(try load("true").notify == true)
        #expect(try load("true").notifySound == true)
        #expect(try load("false").notify == false)
    }

    @Test func soundFalseKeepsNotificationsButWithoutSound() throws {
        let manifest = try load("{ sound: false }")
        #expect(manifest.notify == true)
        #expect(manifest.notifySound == false)
    }

    @Test func enabledFalseInTheMappingTurnsThemOff() throws {
        let manifest = try load("{ enabled: false, sound: true }")
        #expect(manifest.notify == false)
        #expect(manifest.notifySound == true)
    }

    @Test func anUnknownKeyGetsADidYouMeanHint() {
        #expect(errors("{ sonud: false }") == [
            "manifest.yaml:1:11: unknown key \"sonud\" in `notify`; did you mean \"sound\"?",
        ])
    }

    @Test func aWrongValueSaysWhatWasExpected() {
        #expect(errors("{ sound: loud }") == ["manifest.yaml:1:18: expected true or false for `sound`, found \"loud\""])
        #expect(errors("[true]") == ["manifest.yaml:1:9: expected true or false for `notify`, found a list"])
    }
}
