internal import CLibraries
import Glibc

/// Opening, ahead of their first use, the libraries a command is about to need.
///
/// Opening libcurl maps some thirty libraries (OpenSSL, Kerberos, LDAP, SSH…), relocates them
/// and runs their constructors: about a third of a small re-check's time, all of it the loader's
/// and the kernel's. Started on a thread of its own as the command begins, it runs while the
/// command parses its arguments, reads its manifest, takes its lock and opens its state, on
/// another core. Nothing changes in what is opened or in what a missing library says: the
/// command still loads each library before its first call (``SharedLibrary/load()``), which
/// waits for the thread and gives its answer.
public enum SharedLibraryPreload {
    /// Whether a thread started now could run alongside this one: false where this thread may
    /// use one processor only, and then nothing is opened ahead.
    static var canLoadAlongside: Bool { syncagent_libraries_can_load_alongside() != 0 }

    /// Starts opening what a batch of transfers needs — libcurl, then libcrypto — and returns
    /// at once; does nothing where only one processor is there to run it
    /// (``canLoadAlongside``). SQLite is left to the command's thread, which opens it with the
    /// state meanwhile: the loading thread, the longer path, gives way to it. The syncagent
    /// command starts this before its `main` (CLibraries' library_table.c), for the command
    /// lines ``mayTransfer(arguments:)`` accepts.
    public static func startForTransfers() {
        syncagent_libraries_start_loading_for_transfers()
    }

    /// Whether a command line (without the program's name) looks like `--once` with transfers,
    /// whose libraries the program then starts opening before its `main` runs: a guess from the
    /// words alone, before the parser has run. A wrong guess costs only the opening, and what
    /// the command does is decided by the parser as ever.
    public static func mayTransfer(arguments: [String]) -> Bool {
        var pointers = arguments.map { strdup($0) }
        defer { pointers.forEach { free($0) } }
        return pointers.withUnsafeMutableBufferPointer { buffer in
            buffer.baseAddress!.withMemoryRebound(to: UnsafePointer<CChar>?.self, capacity: max(buffer.count, 1)) {
                syncagent_arguments_may_transfer($0, UInt(buffer.count)) != 0
            }
        }
    }
}
