internal import CCurl

/// libcurl's process-wide set-up, done once before the first handle.
///
/// `curl_global_init` is not thread-safe; a Swift global is initialised exactly once,
/// atomically, on first use.
enum CurlGlobal {
    private static let initialized: Bool = {
        // CURL_GLOBAL_ALL imports as Int32 while the function takes a long.
        curl_global_init(Int(CURL_GLOBAL_ALL)) == CURLE_OK
    }()

    /// Makes sure libcurl is set up; traps if it cannot be (no TLS library: nothing works).
    static func ensureInitialized() {
        guard initialized else { fatalError("curl_global_init failed: libcurl cannot run in this process") }
    }
}
