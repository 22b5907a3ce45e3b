internal import CCurl
import Glibc

/// libcurl's process-wide set-up, done once before the first handle.
///
/// Where libcurl's set-up is thread-safe (Debian's is), whichever thread opened libcurl has
/// already done it (CLibraries' curl.c, `prepare_curl`), usually the library-loading thread
/// alongside the command: the call here then only adds one to libcurl's count of users. It
/// still decides: a set-up that failed there is tried again here, and fails the same way. A
/// Swift global is initialised exactly once, atomically, on first use, so this thread calls it
/// once however many handles are made.
enum CurlGlobal {
    private static let initialized: Bool = {
        // CURL_GLOBAL_ALL imports as Int32 while the function takes a long.
        curl_global_init(Int(CURL_GLOBAL_ALL)) == CURLE_OK
    }()

    /// libcurl's own folder of CA certificates (`/etc/ssl/certs` in Debian's), when it has
    /// one and the folder is there; `nil` otherwise.
    static var builtInCertificateFolder: String? {
        // CURLVERSION_NOW, a macro Swift does not import, is this header's newest version; the
        // answer's `age` says which fields it has (`capath` from the seventh on).
        guard let info = curl_version_info(CURLVERSION_ELEVENTH)?.pointee, info.age.rawValue >= CURLVERSION_SEVENTH.rawValue,
              let path = info.capath.map({ String(cString: $0) }) else { return nil }
        var status = stat()
        return stat(path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFDIR ? path : nil
    }

    /// Makes sure libcurl is set up; traps if it cannot be (no TLS library: nothing works).
    static func ensureInitialized() {
        guard initialized else { fatalError("curl_global_init failed: libcurl cannot run in this process") }
    }
}
