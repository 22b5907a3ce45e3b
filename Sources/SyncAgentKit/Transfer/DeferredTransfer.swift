/// A transfer queued before its request is made (``TransferEngine/add(deferred:)``): the
/// request is made only when the transfer can start.
public struct DeferredTransfer: Sendable, Equatable {
    /// The id its request and events will carry.
    public var id: Int
    /// Where it comes from: the engine queues it with the other transfers to its host.
    public var url: String
    /// The caller's note of what to make the request from, handed back to
    /// ``TransferEngine/makeDeferredRequest``.
    public var ticket: Int

    public init(id: Int, url: String, ticket: Int) {
        self.id = id
        self.url = url
        self.ticket = ticket
    }
}
