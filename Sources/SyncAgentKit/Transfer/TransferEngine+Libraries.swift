extension TransferEngine {
    /// Opens libcurl and libcrypto, which transfers need. A command calls it before its first
    /// transfer, so that a library that is not installed ends it with an error saying which
    /// package to install, not at the first transfer.
    public static func loadLibraries() throws(SharedLibraryError) {
        try SharedLibrary.curl.load()
        try SharedLibrary.crypto.load()
    }
}
