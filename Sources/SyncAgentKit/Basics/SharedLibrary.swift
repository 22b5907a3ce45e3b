internal import CLibraries

/// A C library syncagent opens when a command first needs it rather than at every start
/// (CLibraries: `dlopen`, then forwarders under the library's own names), so `--version`,
/// `check` or `status` never pay for libcurl's TLS stack or GLib.
///
/// ``load()`` before a library's first call turns one that is not installed into an error that
/// says what to install and what still works; a forwarder called without it ends the process
/// with the loader's words instead.
struct SharedLibrary: Sendable {
    /// The library as people know it, e.g. "libcurl".
    let name: String
    /// The soname it is opened by, e.g. "libcurl.so.4".
    let soname: String
    /// The Debian package that installs it.
    let package: String
    /// What cannot work without it and what still does, e.g. "downloads need it; …".
    let consequence: String
    /// The library table it is (CLibraries), `nil` for one opened by soname alone.
    private let library: syncagent_library?
    private let open: @Sendable () -> String?

    /// The sonames opened before it, leaves first, to open it faster (CLibraries'
    /// library_table.h); empty for most. Read from the table when asked, not made at start.
    var openedBefore: [String] {
        guard let library else { return [] }
        var sonames: [String] = []
        var name = syncagent_library_dependencies(library)
        while let soname = name?.pointee {
            sonames.append(String(cString: soname))
            name = name?.successor()
        }
        return sonames
    }

    /// libcurl, for every transfer.
    static let curl = SharedLibrary(
        name: "libcurl", library: SYNCAGENT_LIBRARY_CURL,
        consequence: "downloads need it; `check`, `status` and the other commands that download nothing work without it"
    )
    /// libcrypto, for SHA-256.
    static let crypto = SharedLibrary(
        name: "libcrypto", library: SYNCAGENT_LIBRARY_CRYPTO,
        consequence: "downloads need it (SHA-256 checks, feeds); the commands that download nothing work without it"
    )
    /// GLib, GObject and GIO: the condition monitor, notifications, the file manager.
    static let gio = SharedLibrary(
        name: "GLib's GIO", library: SYNCAGENT_LIBRARY_GIO,
        consequence: "watching power and network needs it; transfers go on as if conditions were good"
    )
    /// libnotify, for desktop notifications.
    static let notify = SharedLibrary(
        name: "libnotify", library: SYNCAGENT_LIBRARY_NOTIFY,
        consequence: "notifications are skipped; everything else goes on"
    )

    /// SQLite, for the saved state.
    static let sqlite = SharedLibrary(
        name: "SQLite", library: SYNCAGENT_LIBRARY_SQLITE,
        consequence: "the saved state needs it; `check` and the commands that read no state work without it"
    )

    private init(name: String, library: syncagent_library, consequence: String) {
        self.name = name
        soname = String(cString: syncagent_library_soname(library))
        package = String(cString: syncagent_library_package(library))
        self.consequence = consequence
        self.library = library
        open = {
            var reason: UnsafePointer<CChar>?
            guard syncagent_library_load(library, &reason) == 0 else { return nil }
            return reason.map { String(cString: $0) } ?? "unknown reason"
        }
    }

    /// A library opened by `soname` alone, resolving nothing: what tests use to see the error
    /// for a library that is not installed.
    init(name: String, soname: String, package: String, consequence: String) {
        self.name = name
        self.soname = soname
        self.package = package
        self.consequence = consequence
        library = nil
        open = {
            var reason = [CChar](repeating: 0, count: 512)
            guard syncagent_library_probe(soname, &reason, UInt(reason.count)) == 0 else { return nil }
            return String(decoding: reason.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
    }

    /// Opens the library, once per process (later calls give the first answer; any thread).
    /// - Throws: ``ErrorCode/cannotLoad`` naming the library, the reason, the Debian package
    ///   to install and what still works.
    func load() throws(SharedLibraryError) {
        guard let reason = open() else { return }
        throw SharedLibraryError(.cannotLoad, "\(name) cannot be loaded (\(reason)): \(remedy(for: reason)); \(consequence)")
    }

    /// What to install: the package of the file the loader failed on, which may be one of the
    /// library's own dependencies (GLib for libnotify); the library's own package when the
    /// failure is its own, or a dependency of unknown package (reinstalling it pulls that in).
    func remedy(for reason: String) -> String {
        let failed = SharedLibraryPackages.failedFile(in: reason)
        guard let failed, failed != soname else { return "install the Debian package \(package)" }
        guard let dependency = SharedLibraryPackages.bySoname[failed] else {
            return "install the Debian package \(package) again (it needs \(failed))"
        }
        return "install the Debian package \(dependency) (\(failed), which \(soname) needs)"
    }
}
