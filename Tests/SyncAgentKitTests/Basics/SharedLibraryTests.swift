@testable import SyncAgentKit
import Testing

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
        for library in [SharedLibrary.curl, .crypto, .gio, .notify] {
            try library.load()
        }
        #expect([SharedLibrary.curl, .crypto, .gio, .notify].map(\.soname) == [
            "libcurl.so.4", "libcrypto.so.3", "libgio-2.0.so.0", "libnotify.so.4",
        ])
        #expect([SharedLibrary.curl, .crypto, .gio, .notify].map(\.package) == ["libcurl4", "libssl3", "libglib2.0-0", "libnotify4"])
    }
}
