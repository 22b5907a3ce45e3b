@testable import SyncAgentKit

/// A manifest with only a `limits` mapping, for the tests of its keys.
enum LimitsManifest {
    static let context = ManifestLoader.Context(
        manifestPath: "manifest.yaml", homeDirectory: "/home/ada",
        defaultDestination: "/home/ada/Downloads/syncagent", workingDirectory: "/work"
    )

    /// The manifest whose `limits` holds the one line `limits`.
    static func load(_ limits: String) throws(InvalidManifest) -> Manifest {
        try ManifestLoader(context: context).load(Array("limits:\n  \(limits)\nfiles: []\n".utf8))
    }

    /// What is wrong with that manifest, one message per problem; none when it loads.
    static func problems(_ limits: String) -> [String] {
        do {
            _ = try load(limits)
            return []
        } catch {
            return error.errors.map(\.description)
        }
    }
}
