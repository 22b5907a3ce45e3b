internal import CCurl

extension CurlEasy {
    /// The local and remote ports of the connection the running transfer uses, which name
    /// that connection's TCP socket (see ``ConnectionSockets``). Ask from a callback, while
    /// the transfer holds the connection; `nil` before there is one.
    ///
    /// libcurl has no reliable way to name the socket itself: `CURLINFO_ACTIVESOCKET` finds
    /// "the last connection" by an id that can belong to an older connection of a reused
    /// handle, one another transfer may be using by now. The ports cannot be wrong.
    /// - SeeAlso: https://curl.se/libcurl/c/CURLINFO_LOCAL_PORT.html
    /// - SeeAlso: https://curl.se/libcurl/c/CURLINFO_PRIMARY_PORT.html
    var connectionPorts: ConnectionSockets.Ports? {
        var local = 0
        var remote = 0
        guard syncagent_easy_getinfo_long(rawHandle, CURLINFO_LOCAL_PORT, &local) == CURLE_OK,
              syncagent_easy_getinfo_long(rawHandle, CURLINFO_PRIMARY_PORT, &remote) == CURLE_OK,
              local > 0, remote > 0
        else { return nil }
        return ConnectionSockets.Ports(local: local, remote: remote)
    }

    /// Whether the finished transfer opened a connection of its own rather than reuse one.
    /// - SeeAlso: https://curl.se/libcurl/c/CURLINFO_NUM_CONNECTS.html
    var openedNewConnection: Bool {
        var count = 0
        syncagent_easy_getinfo_long(rawHandle, CURLINFO_NUM_CONNECTS, &count)
        return count > 0
    }
}
