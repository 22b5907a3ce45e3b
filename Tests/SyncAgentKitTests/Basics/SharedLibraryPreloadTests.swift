import Glibc
@testable import SyncAgentKit
import Testing

/// Opening the libraries of a batch ahead, on a thread of their own: the caller goes on with
/// its signals as they were, and each library then loads as if it had been opened on first use.
struct SharedLibraryPreloadTests {
    @Test func theCallersSignalMaskIsAsItWas() {
        var before = sigset_t()
        pthread_sigmask(SIG_BLOCK, nil, &before)
        SharedLibraryPreload.startForTransfers()
        var after = sigset_t()
        pthread_sigmask(SIG_BLOCK, nil, &after)
        for signal in [SIGINT, SIGTERM, SIGHUP, SIGWINCH, SIGUSR1, SIGPIPE] {
            #expect(sigismember(&after, signal) == sigismember(&before, signal), "signal \(signal)")
        }
    }

    @Test func theLibrariesOpenedAheadLoadWithEveryFunction() throws {
        SharedLibraryPreload.startForTransfers()
        for library in [SharedLibrary.sqlite, .curl, .crypto] {
            try library.load()
        }
    }
}
