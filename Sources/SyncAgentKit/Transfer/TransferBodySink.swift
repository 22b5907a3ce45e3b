/// Where a response's body goes instead of a file: a transfer added with a sink
/// (``TransferEngine/add(_:into:)``) hands each chunk over as curl delivers it, on the
/// engine's thread, and puts nothing on disk. A feed's parser reads its body this way.
///
/// Everything else about the transfer is the engine's as for a file: conditional requests,
/// redirects, proxies, TLS, retries, `max_size`, and messages that name the host.
public protocol TransferBodySink: AnyObject {
    /// A new body begins (the first attempt, or a retry): forget any earlier one.
    func restart()
    /// The next bytes of the body. Throwing stops the transfer with that failure.
    func receive(_ chunk: UnsafeRawBufferPointer) throws(TransferFailure)
}
