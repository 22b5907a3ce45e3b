internal import CLibraries

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

    /// Starts opening what a batch of transfers needs, in the order a batch first uses it —
    /// SQLite (the state), then libcurl and libcrypto — and returns at once; does nothing
    /// where only one processor is there to run it (``canLoadAlongside``).
    public static func startForTransfers() {
        let libraries = [SYNCAGENT_LIBRARY_SQLITE, SYNCAGENT_LIBRARY_CURL, SYNCAGENT_LIBRARY_CRYPTO]
        libraries.withUnsafeBufferPointer { syncagent_libraries_start_loading($0.baseAddress, UInt($0.count)) }
    }
}
