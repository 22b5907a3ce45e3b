/// What the driver keeps of a file's transfer while it is pending: what recording its events
/// and naming the file take. Not the whole ``TransferRequest``: the engine keeps that until it
/// starts the transfer, and a round of 10,000 files would hold every request twice.
struct InFlightTransfer {
    /// The manifest entry's title.
    var title: String
    /// The manifest's path of the file, which keys its record.
    var path: String
    var url: String
    /// Where the file is kept; differs from ``path`` for a file its server named.
    var destination: String
    /// Whether the server is asked to name the file (``TransferRequest/serverNaming``).
    var namedByServer: Bool

    init(_ request: TransferRequest, title: String, path: String) {
        self.title = title
        self.path = path
        self.url = request.url
        self.destination = request.destination
        self.namedByServer = request.serverNaming != nil
    }
}
