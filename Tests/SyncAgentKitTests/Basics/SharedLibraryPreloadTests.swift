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

    /// On one processor a loading thread would only take turns with the command.
    @Test func onOneProcessorNothingIsOpenedAlongside() throws {
        let processors = try #require(Affinity.processorsOfThisThread())
        try #require(processors.count > 1, "the machine has one processor")
        #expect(SharedLibraryPreload.canLoadAlongside)
        defer { _ = Affinity.setThisThread(to: processors) }
        try #require(Affinity.setThisThread(to: [processors[0]]))
        #expect(!SharedLibraryPreload.canLoadAlongside)
        try #require(Affinity.setThisThread(to: processors))
        #expect(SharedLibraryPreload.canLoadAlongside)
    }

    @Test func theLibrariesOpenedAheadLoadWithEveryFunction() throws {
        SharedLibraryPreload.startForTransfers()
        for library in [SharedLibrary.sqlite, .curl, .crypto] {
            try library.load()
        }
    }
}

/// The processors a thread may run on. Glibc's Swift module leaves sched_getaffinity and
/// sched_setaffinity out (they need _GNU_SOURCE), so they are looked up by name.
private enum Affinity {
    private typealias Call = @convention(c) (pid_t, Int, UnsafeMutableRawPointer) -> Int32
    /// A `cpu_set_t`'s size: 1,024 processors.
    private static let size = 128

    private static func function(_ name: String) -> Call? {
        dlsym(UnsafeMutableRawPointer(bitPattern: 0), name).map { unsafeBitCast($0, to: Call.self) }
    }

    /// The processors the calling thread may run on, by number.
    static func processorsOfThisThread() -> [Int]? {
        guard let get = function("sched_getaffinity") else { return nil }
        var set = [UInt8](repeating: 0, count: size)
        guard set.withUnsafeMutableBytes({ get(0, size, $0.baseAddress!) }) == 0 else { return nil }
        return (0..<size * 8).filter { set[$0 / 8] & (1 << ($0 % 8)) != 0 }
    }

    /// Lets the calling thread run on `processors` only; whether that was done.
    static func setThisThread(to processors: [Int]) -> Bool {
        guard let set = function("sched_setaffinity") else { return false }
        var mask = [UInt8](repeating: 0, count: size)
        for processor in processors { mask[processor / 8] |= UInt8(1 << (processor % 8)) }
        return mask.withUnsafeMutableBytes { set(0, size, $0.baseAddress!) } == 0
    }
}
