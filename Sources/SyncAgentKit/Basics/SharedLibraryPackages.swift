/// The Debian packages of the libraries that syncagent's libraries load in turn (Debian 12's
/// names), so that a failure names what to install: without GLib, libnotify's own load fails
/// on `libgio-2.0.so.0`, and the package to install is libglib2.0-0, not libnotify4.
enum SharedLibraryPackages {
    static let bySoname: [String: String] = [
        "libglib-2.0.so.0": "libglib2.0-0", "libgobject-2.0.so.0": "libglib2.0-0",
        "libgio-2.0.so.0": "libglib2.0-0", "libgmodule-2.0.so.0": "libglib2.0-0",
        "libgdk_pixbuf-2.0.so.0": "libgdk-pixbuf-2.0-0",
        "libssl.so.3": "libssl3", "libcrypto.so.3": "libssl3", "libnghttp2.so.14": "libnghttp2-14",
        "libidn2.so.0": "libidn2-0", "librtmp.so.1": "librtmp1", "libssh2.so.1": "libssh2-1", "libpsl.so.5": "libpsl5",
        "libgssapi_krb5.so.2": "libgssapi-krb5-2", "libldap-2.5.so.0": "libldap-2.5-0", "liblber-2.5.so.0": "libldap-2.5-0",
        "libzstd.so.1": "libzstd1", "libbrotlidec.so.1": "libbrotli1", "libmount.so.1": "libmount1",
    ]

    /// The file the dynamic loader's `reason` is about: glibc starts its words with it
    /// ("/usr/lib/…/libgio-2.0.so.0: file too short", "libgio-2.0.so.0: cannot open shared
    /// object file: …"), reduced to its name.
    static func failedFile(in reason: String) -> String? {
        guard let colon = reason.firstRange(of: ": ") else { return nil }
        let path = reason[..<colon.lowerBound]
        guard let name = path.split(separator: "/").last, name.contains(".so") else { return nil }
        return String(name)
    }
}
