/// What the driver keeps of a file's transfer from when its request is made (as it starts)
/// until it is over: what recording its events and naming the file take, not the whole
/// ``TransferRequest``, which the engine holds while the transfer runs.
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
    /// The file's place among the manifest's files when it is kept at its manifest path, so
    /// its result can be told by its place (``BatchResults``); `nil` otherwise.
    var place: Int?
    /// Where the transfer stands while it runs, for `syncagent status`; `nil` before it starts
    /// and while it waits for a retry. Kept here, not in a table of its own by id: each event
    /// then costs one search of the id, not two or three.
    var progress: TransferProgress?

    /// `request` is read, not kept: borrowed, so that the caller hands it on uncopied.
    init(_ request: borrowing TransferRequest, title: String, path: String, place: Int? = nil) {
        self.title = title
        self.path = path
        self.place = request.destination == path ? place : nil
        self.url = request.url
        self.destination = request.destination
        self.namedByServer = request.serverNaming != nil
    }
}
