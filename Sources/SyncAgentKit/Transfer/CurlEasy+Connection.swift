import CCurl

extension CurlEasy {
    /// The socket of the connection the finished transfer used, while that connection waits
    /// in the multi handle's pool for reuse: ask before the handle leaves the multi handle
    /// (libcurl finds it only then). `nil` when curl closed the connection.
    ///
    /// `CURLINFO_ACTIVESOCKET` writes a `curl_socket_t` (an `int` on Linux) where the pointer
    /// points, so the storage is a pointer-sized word read back as an `Int32`.
    /// - SeeAlso: https://curl.se/libcurl/c/CURLINFO_ACTIVESOCKET.html
    var pooledConnectionSocket: Int32? {
        let word = UnsafeMutableRawPointer.allocate(byteCount: MemoryLayout<UnsafeMutableRawPointer?>.size, alignment: 8)
        defer { word.deallocate() }
        word.storeBytes(of: nil, as: UnsafeMutableRawPointer?.self)
        let slot = word.assumingMemoryBound(to: UnsafeMutableRawPointer?.self)
        guard syncagent_easy_getinfo_pointer(rawHandle, CURLINFO_ACTIVESOCKET, slot) == CURLE_OK else { return nil }
        let socket = word.load(as: Int32.self)
        return socket >= 0 ? socket : nil
    }
}
