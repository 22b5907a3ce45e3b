@testable import SyncAgentKit
import Testing
import TestSupport

/// The C libraries syncagent opens on first use: what a missing one says, and that the real
/// ones open by the sonames Debian's runtime packages install.
struct SharedLibraryTests {
    @Test func aLibraryThatIsNotInstalledSaysWhichPackageToInstallAndWhatStillWorks() {
        let missing = SharedLibrary(
            name: "libsyncagent-test", soname: "libsyncagent-test-missing.so.7", package: "libsyncagent-test7",
            consequence: "tests need it; nothing else does"
        )
        #expect(throws: SharedLibraryError(
            .cannotLoad,
            "libsyncagent-test cannot be loaded (libsyncagent-test-missing.so.7: cannot open shared object file: No such file or directory): "
                + "install the Debian package libsyncagent-test7; tests need it; nothing else does"
        )) {
            try missing.load()
        }
    }

    @Test func theLibrariesSyncagentNeedsOpenBySonameWithEveryFunctionItCalls() throws {
        let libraries = [SharedLibrary.curl, .crypto, .gio, .notify, .sqlite]
        for library in libraries {
            try library.load()
        }
        #expect(libraries.map(\.soname) == ["libcurl.so.4", "libcrypto.so.3", "libgio-2.0.so.0", "libnotify.so.4", "libsqlite3.so.0"])
        #expect(libraries.map(\.package) == ["libcurl4", "libssl3", "libglib2.0-0", "libnotify4", "libsqlite3-0"])
    }

    /// libcurl is opened after its dependencies, one by one, leaves first (CLibraries' curl.c,
    /// for speed): the list must be libcurl's whole tree as installed, each library after those
    /// it needs, or a Debian update that changed the tree would leave some of it to the slow way.
    @Test func libcurlsDependenciesAreOpenedBeforeItLeavesFirst() throws {
        let listed = SharedLibrary.curl.openedBefore
        // "\tlibnghttp2.so.14 => /lib/x86_64-linux-gnu/libnghttp2.so.14 (0x…)"
        let ldd = try ToolRun(["ldd", "/lib/x86_64-linux-gnu/libcurl.so.4"])
        var paths: [String: String] = [:]
        for line in ldd.standardOutput.split(separator: "\n") {
            let words = line.split(whereSeparator: \.isWhitespace)
            guard words.count >= 3, words[1] == "=>" else { continue }
            paths[String(words[0])] = String(words[2])
        }
        // The C library is the program's own, loaded before anything else.
        paths["libc.so.6"] = nil
        #expect(Set(listed) == Set(paths.keys), "libcurl's tree: \(paths.keys.sorted())")
        #expect(listed.count == Set(listed).count, "a library listed twice: \(listed)")
        for (place, soname) in listed.enumerated() {
            let path = try #require(paths[soname], "\(soname) is not in libcurl's tree")
            let dynamic = try ToolRun(["readelf", "--dynamic", path])
            // " 0x0000000000000001 (NEEDED)             Shared library: [libc.so.6]"
            let needed = dynamic.standardOutput.split(separator: "\n").filter { $0.contains("(NEEDED)") }.compactMap { line in
                line.split(separator: "[").last?.split(separator: "]").first.map(String.init)
            }
            let later = needed.filter { listed.dropFirst(place).contains($0) }
            #expect(later.isEmpty, "\(soname) needs \(later), listed after it")
        }
    }

    /// glibc's words when the library or one it loads in turn is an empty file or missing.
    @Test func theMessageNamesThePackageOfTheFileTheLoaderFailedOn() {
        let library = "/usr/lib/x86_64-linux-gnu/"
        #expect(SharedLibrary.notify.remedy(for: library + "libnotify.so.4: file too short") == "install the Debian package libnotify4")
        #expect(SharedLibrary.notify.remedy(for: library + "libgio-2.0.so.0: file too short")
            == "install the Debian package libglib2.0-0 (libgio-2.0.so.0, which libnotify.so.4 needs)")
        #expect(SharedLibrary.curl.remedy(for: "libnghttp2.so.14: cannot open shared object file: No such file or directory")
            == "install the Debian package libnghttp2-14 (libnghttp2.so.14, which libcurl.so.4 needs)")
        #expect(SharedLibrary.curl.remedy(for: "libunheard.so.9: cannot open shared object file: No such file or directory")
            == "install the Debian package libcurl4 again (it needs libunheard.so.9)")
        #expect(SharedLibrary.curl.remedy(for: library + "libcurl.so.4: undefined symbol: curl_easy_upkeep")
            == "install the Debian package libcurl4")
    }
}
