internal import CCurl

/// One libcurl multi handle: drives many ``CurlEasy`` transfers from one thread.
///
/// Not thread-safe: touch it from the thread that runs the transfers. The one exception is
/// ``waker``, which other threads may use to interrupt ``poll(timeout:)``.
/// - SeeAlso: https://curl.se/libcurl/c/libcurl-multi.html
final class CurlMulti {
    private let handle: UnsafeMutableRawPointer
    /// The easy handles added, by raw pointer, to map curl's messages back to them.
    private var transfers: [UnsafeMutableRawPointer: CurlEasy] = [:]

    init() {
        CurlGlobal.ensureInitialized()
        guard let handle = curl_multi_init() else { fatalError("curl_multi_init failed: out of memory") }
        self.handle = handle
    }

    deinit {
        for easy in transfers.keys { curl_multi_remove_handle(handle, easy) }
        curl_multi_cleanup(handle)
    }

    /// Caps connections to one host; transfers beyond it wait inside curl.
    /// - SeeAlso: https://curl.se/libcurl/c/CURLMOPT_MAX_HOST_CONNECTIONS.html
    func setMaximumConnectionsPerHost(_ count: Int) {
        syncagent_multi_setopt_long(handle, CURLMOPT_MAX_HOST_CONNECTIONS, count)
    }

    /// Starts driving a transfer. The multi keeps it alive until ``remove(_:)``.
    func add(_ easy: CurlEasy) throws(CurlError) {
        let code = curl_multi_add_handle(handle, easy.rawHandle)
        guard code == CURLM_OK else { throw CurlError(multi: code) }
        transfers[easy.rawHandle] = easy
    }

    /// Stops driving a transfer, finished or not.
    func remove(_ easy: CurlEasy) {
        curl_multi_remove_handle(handle, easy.rawHandle)
        transfers[easy.rawHandle] = nil
    }

    /// Lets curl do whatever can be done now without waiting.
    /// - SeeAlso: https://curl.se/libcurl/c/curl_multi_perform.html
    func perform() throws(CurlError) {
        var running: Int32 = 0
        let code = curl_multi_perform(handle, &running)
        guard code == CURLM_OK else { throw CurlError(multi: code) }
    }

    /// Sleeps until a socket or one of curl's timers needs attention, one of `descriptors` is
    /// readable, ``Waker/wake()`` is called, or `timeout` passes — whichever is first. Costs no
    /// CPU while it waits. Returns the descriptors that are readable.
    /// - SeeAlso: https://curl.se/libcurl/c/curl_multi_poll.html
    func poll(timeout: Duration, watching descriptors: [Int32] = []) throws(CurlError) -> Set<Int32> {
        let milliseconds = Int32(clamping: max(0, timeout.milliseconds))
        var waits = descriptors.map { curl_waitfd(fd: $0, events: Int16(CURL_WAIT_POLLIN), revents: 0) }
        let code = waits.withUnsafeMutableBufferPointer { buffer in
            curl_multi_poll(handle, buffer.baseAddress, UInt32(buffer.count), milliseconds, nil)
        }
        guard code == CURLM_OK else { throw CurlError(multi: code) }
        return Set(waits.filter { $0.revents & Int16(CURL_WAIT_POLLIN) != 0 }.map(\.fd))
    }

    /// The transfers that ended since the last call, with their results (`nil`: success).
    /// - SeeAlso: https://curl.se/libcurl/c/curl_multi_info_read.html
    func completedTransfers() -> [(easy: CurlEasy, error: CurlError?)] {
        var completed: [(CurlEasy, CurlError?)] = []
        var remaining: Int32 = 0
        while let message = curl_multi_info_read(handle, &remaining) {
            guard message.pointee.msg == CURLMSG_DONE,
                  let raw = message.pointee.easy_handle,
                  let easy = transfers[raw]
            else { continue }
            let code = message.pointee.data.result
            completed.append((easy, code == CURLE_OK ? nil : easy.error(for: code)))
        }
        return completed
    }

    /// A way for another thread to cut ``poll(timeout:)`` short.
    var waker: Waker { Waker(handle: handle) }

    /// Interrupts a sleeping ``CurlMulti/poll(timeout:)`` from any thread.
    ///
    /// `curl_multi_wakeup` is documented as thread-safe; the raw pointer is only ever passed
    /// to it. It must not be used after the multi handle is gone.
    struct Waker: @unchecked Sendable {
        fileprivate let handle: UnsafeMutableRawPointer

        /// - SeeAlso: https://curl.se/libcurl/c/curl_multi_wakeup.html
        func wake() {
            curl_multi_wakeup(handle)
        }
    }
}
