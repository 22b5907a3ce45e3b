import Testing
@testable import SyncAgentKit

/// ``Manifest/destinationPath(of:)`` and ``Manifest/folderPath(of:)``, written into one string
/// of the right size: the same paths as joining with `+`.
struct DestinationPathTests {
    @Test func joinsTheDestinationAndTheEntrysPathWithOneSlash() {
        let entry = Manifest.Entry(title: "T", url: "https://example.org/a.pdf", path: "guides/a.pdf")
        #expect(Manifest(destination: "/srv/mirror", files: []).destinationPath(of: entry) == "/srv/mirror/guides/a.pdf")
        #expect(Manifest(destination: "/", files: []).destinationPath(of: entry) == "/guides/a.pdf")
    }

    @Test func keepsTextThatIsNotASCIIAsItIs() {
        let entry = Manifest.Entry(title: "T", url: "https://example.org/a.pdf", path: "Résumés/été 2026.pdf")
        let destination = "/home/zoë/Téléchargements"
        #expect(Manifest(destination: destination, files: []).destinationPath(of: entry) == destination + "/" + entry.path)
        #expect(Manifest.joined(destination, "") == destination + "/")
    }
}
