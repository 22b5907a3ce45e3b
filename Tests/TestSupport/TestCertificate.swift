import Foundation

/// Certificates for the HTTPS servers tests start on 127.0.0.1.
public enum TestCertificate {
    /// Writes a self-signed certificate for 127.0.0.1 and localhost, valid for two days, to
    /// `certificate`, and its key to `key`: the certificate is its own CA, so a client trusts
    /// it through `CURL_CA_BUNDLE`.
    public static func make(certificate: String, key: String) throws {
        try openssl([
            "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
            "-keyout", key, "-out", certificate, "-days", "2", "-subj", "/CN=127.0.0.1",
            "-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost",
        ], failing: "make a test certificate")
    }

    /// Copies `certificate` into `folder` and names it as OpenSSL looks an issuer up in a folder
    /// (`openssl rehash`): a folder that trusts it, as `/etc/ssl/certs` trusts the system's.
    public static func addToFolder(_ certificate: String, folder: String) throws {
        try FileManager.default.copyItem(atPath: certificate, toPath: folder + "/test-authority.pem")
        try openssl(["rehash", folder], failing: "hash the certificate folder \(folder)")
    }

    /// Runs `/usr/bin/openssl` with `arguments`; throws, saying it could not do `what`, unless
    /// it exits with 0.
    private static func openssl(_ arguments: [String], failing what: String) throws {
        let openssl = Process()
        openssl.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        openssl.arguments = arguments
        openssl.standardOutput = FileHandle.nullDevice
        openssl.standardError = FileHandle.nullDevice
        try openssl.run()
        openssl.waitUntilExit()
        guard openssl.terminationStatus == 0 else {
            throw TestSupportError("openssl could not \(what) (exit \(openssl.terminationStatus))")
        }
    }
}
