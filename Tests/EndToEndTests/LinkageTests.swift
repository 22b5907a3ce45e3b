import Foundation
import Testing
import TestSupport

/// What the binary loads at start. syncagent uses FoundationEssentials, never Foundation:
/// Foundation's library pulls in ICU (a 40 MB data library) and costs every start several
/// milliseconds and mebibytes (docs/benchmarks.md, start-up). libcurl, libcrypto, GLib,
/// libnotify and SQLite are opened when a command first needs them (CLibraries), not linked:
/// together they are most of the dynamic loader's work at a start. One `import Foundation`, or a
/// system library that links them again, would bring that back unnoticed; these tests notice.
struct LinkageTests {
    /// The libraries opened on first use, by the start of their file names (gdk-pixbuf comes
    /// with libnotify), but SQLite.
    static let openedToTransfer = [
        "libcurl.", "libcrypto.", "libnotify.", "libgio-2.0.", "libgobject-2.0.", "libglib-2.0.", "libgdk_pixbuf-2.0.",
    ]
    /// All the libraries opened on first use: SQLite too, for the saved state.
    static let openedOnFirstUse = openedToTransfer + ["libsqlite3."]
    /// A library still linked, to see that the lists read are the real ones.
    static let linked = "libyaml-0."

    @Test func theBinaryLoadsNeitherFoundationNorICU() throws {
        let binary = try BuiltProducts.executable(named: "syncagent")
        let run = try ToolRun(["ldd", binary])
        #expect(run.status == 0, "\(run.standardError)")
        let libraries = run.standardOutput.split(separator: "\n").compactMap { $0.split(whereSeparator: \.isWhitespace).first.map(String.init) }
        #expect(libraries.contains { $0.hasPrefix("libFoundationEssentials") }, "ldd listed \(libraries)")
        let unwanted = libraries.filter { name in
            ["libFoundation.so", "libFoundationInternationalization", "lib_FoundationICU", "libicu"].contains { name.hasPrefix($0) }
        }
        #expect(unwanted.isEmpty, "the binary loads \(unwanted): some source file imports Foundation instead of FoundationEssentials")
    }

    @Test func theBinaryDoesNotLinkTheLibrariesItOpensOnFirstUse() throws {
        let binary = try BuiltProducts.executable(named: "syncagent")
        let run = try ToolRun(["readelf", "--dynamic", binary])
        #expect(run.status == 0, "\(run.standardError)")
        // "0x0000000000000001 (NEEDED)  Shared library: [libyaml-0.so.2]"
        let needed = run.standardOutput.split(separator: "\n").filter { $0.contains("(NEEDED)") }.compactMap { line in
            line.split(separator: "[").last?.split(separator: "]").first.map(String.init)
        }
        #expect(needed.contains { $0.hasPrefix(Self.linked) }, "readelf listed \(needed)")
        let linked = needed.filter { name in Self.openedOnFirstUse.contains { name.hasPrefix($0) } }
        #expect(linked.isEmpty, "the binary links \(linked): a system library target links them again (pkgConfig: or a module map's link)")
    }

    @Test(arguments: [["--version"], ["check"]])
    func commandsThatReadNoStateLoadNoneOfThem(_ arguments: [String]) throws {
        let loaded = try librariesLoaded(by: arguments)
        #expect(loaded.contains { $0.hasPrefix(Self.linked) }, "the loader's log named \(loaded)")
        let unwanted = loaded.filter { name in Self.openedOnFirstUse.contains { name.hasPrefix($0) } }
        #expect(unwanted.isEmpty, "syncagent \(arguments.joined(separator: " ")) loaded \(unwanted)")
    }

    @Test func statusLoadsSQLiteAndNothingATransferNeeds() throws {
        let loaded = try librariesLoaded(by: ["status"])
        #expect(loaded.contains { $0.hasPrefix("libsqlite3.") }, "the loader's log named \(loaded)")
        let unwanted = loaded.filter { name in Self.openedToTransfer.contains { name.hasPrefix($0) } }
        #expect(unwanted.isEmpty, "syncagent status loaded \(unwanted)")
    }

    /// A dry run transfers nothing: over a state with a record of every file (a `--once` that
    /// found no server), it reads the state and plans as `--once` does, and opens nothing a
    /// transfer needs.
    @Test func aDryRunOverASavedStateLoadsSQLiteAndNothingATransferNeeds() throws {
        let loaded = try librariesLoaded(by: ["--once", "--dry-run"], after: ["--once", "--no-notify"])
        #expect(loaded.contains { $0.hasPrefix("libsqlite3.") }, "the loader's log named \(loaded)")
        let unwanted = loaded.filter { name in Self.openedToTransfer.contains { name.hasPrefix($0) } }
        #expect(unwanted.isEmpty, "syncagent --once --dry-run loaded \(unwanted)")
    }

    @Test func aCommandThatFetchesLoadsLibcurlWhenItStarts() throws {
        // `check --feeds` with no feeds fetches nothing, but loads what a fetch needs.
        let loaded = try librariesLoaded(by: ["check", "--feeds"])
        #expect(loaded.contains { $0.hasPrefix("libcurl.") }, "the loader's log named \(loaded)")
        #expect(!loaded.contains { $0.hasPrefix("libnotify.") })
    }

    /// GnuTLS comes with libraries libcurl loads, for schemes syncagent never allows; told not
    /// to (Sources/CLibraries/curl.c), it does not set itself up, which it logs when it does.
    @Test func gnuTLSLoadedWithLibcurlDoesNotSetItselfUp() throws {
        let folder = try TemporaryDirectory(prefix: "linkage")
        defer { folder.remove() }
        let manifest = folder.appending("manifest.yaml")
        try "destination: \(folder.appending("files"))\nfiles: []\n".write(toFile: manifest, atomically: true, encoding: .utf8)
        let binary = try BuiltProducts.executable(named: "syncagent")
        let run = try ToolRun(
            [binary, "check", "--feeds", "--manifest", manifest, "--state-dir", folder.appending("state")],
            environment: ["GNUTLS_DEBUG_LEVEL": "2", "LD_DEBUG": "files", "XDG_RUNTIME_DIR": folder.path]
        )
        #expect(run.status == 0, "\(run.standardError)")
        #expect(run.standardError.contains("file=libgnutls.so"), "GnuTLS was not loaded at all: \(run.standardError)")
        #expect(!run.standardError.contains("gnutls["), "GnuTLS set itself up: \(run.standardError)")
    }

    /// The file names of the libraries `syncagent arguments…` loads, as the dynamic loader's
    /// log (`LD_DEBUG=files`) names them, at start and later, with a 5-entry manifest; after
    /// `syncagent earlier…` (not logged) when given, whose exit status does not matter.
    private func librariesLoaded(by arguments: [String], after earlier: [String]? = nil) throws -> [String] {
        let folder = try TemporaryDirectory(prefix: "linkage")
        defer { folder.remove() }
        let manifest = folder.appending("manifest.yaml")
        // Nothing listens on port 9 (discard): each file fails at once, and is not tried again.
        let entries = (1...5).map { "  - title: Guide \($0)\n    url: http://127.0.0.1:9/guide\($0).pdf\n" }.joined()
        try "destination: \(folder.appending("files"))\nretry: { attempts: 1 }\nfiles:\n\(entries)".write(toFile: manifest, atomically: true, encoding: .utf8)
        let binary = try BuiltProducts.executable(named: "syncagent")
        if let earlier {
            _ = try ToolRun(
                [binary] + earlier + ["--manifest", manifest, "--state-dir", folder.appending("state")], environment: ["XDG_RUNTIME_DIR": folder.path]
            )
        }
        let run = try ToolRun(
            [binary] + arguments + (arguments == ["--version"] ? [] : ["--manifest", manifest, "--state-dir", folder.appending("state")]),
            environment: ["LD_DEBUG": "files", "XDG_RUNTIME_DIR": folder.path]
        )
        #expect(run.status == 0, "\(run.standardError)")
        // "   4711:	file=libyaml-0.so.2 [0];  needed by /…/syncagent [0]"
        return run.standardError.split(separator: "\n").compactMap { line in
            guard let start = line.range(of: "file=") else { return nil }
            return line[start.upperBound...].split(separator: " ").first.map(String.init)
        }
    }
}
