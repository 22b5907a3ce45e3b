/// A feed fetch's body, parsed as curl delivers it and hashed on the way: the parser never
/// sees a whole document, and nothing is written to disk. A body that is not a feed (a web
/// page, broken XML, an entity bomb) stops the transfer at once.
final class FeedBody: TransferBodySink {
    private let title: String
    private let url: String
    private var parser: FeedParser
    private var hasher = SHA256Hasher()

    /// The body of the feed the manifest calls `title`, fetched from `url` (the base for
    /// relative enclosure URLs).
    init(title: String, url: String) {
        self.title = title
        self.url = url
        parser = FeedParser(title: title, url: url)
    }

    func restart() {
        parser = FeedParser(title: title, url: url)
        hasher = SHA256Hasher()
    }

    func receive(_ chunk: UnsafeRawBufferPointer) throws(TransferFailure) {
        hasher.update(chunk)
        do throws(FeedError) {
            try parser.parse(chunk)
        } catch {
            throw TransferFailure(.badResponse, error.message)
        }
    }

    /// Once the whole body arrived: its SHA-256, and the feed it holds or why it holds none.
    func finish() -> (sha256: String, feed: Result<Feed, FeedError>) {
        let digest = hasher.finalize()
        do throws(FeedError) {
            return (digest, .success(try parser.finish()))
        } catch {
            return (digest, .failure(error))
        }
    }
}
