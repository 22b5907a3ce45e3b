// libFuzzer entry point for the feed parser: built by `fuzz/run feeds` together with the
// sources of Sources/SyncAgentKit/Feeds (one module), not part of the Swift package.

/// Parses one input as a feed body, whole and split in two, and checks what the parser
/// promises beyond not crashing: both ways give the same answer; an accepted feed has only
/// http(s) enclosures and yields safe file names; every message (errors and warnings) is
/// free of raw control characters, since they are printed to terminals and notifications.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzFeed(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let whole = parse([bytes[...]])
    // A split point that depends on the input, so chunked feeding is fuzzed too.
    let cut = bytes.isEmpty ? 0 : Int(bytes[bytes.count / 2]) * 7 % (bytes.count + 1)
    let split = parse([bytes[..<cut], bytes[cut...]])
    switch (whole, split) {
    case (.success(let feed), .success(let other)):
        guard feed == other else { fatalError("the feed differs when the body comes in two chunks (cut at \(cut))") }
        check(feed)
    case (.failure(let error), .failure(let other)):
        guard error.code == other.code else { fatalError("the error differs when the body comes in two chunks: \(error) / \(other)") }
        check(message: error.message)
    default:
        fatalError("whole and split bodies disagree: \(whole) / \(split)")
    }
    return 0
}

private func parse(_ chunks: [ArraySlice<UInt8>]) -> Result<Feed, FeedError> {
    let parser = FeedParser(title: "Fuzz", url: "https://example.com/podcast/feed.xml")
    do {
        for chunk in chunks { try parser.parse(Array(chunk)) }
        return .success(try parser.finish())
    } catch {
        return .failure(error)
    }
}

private func check(_ feed: Feed) {
    for item in feed.items {
        for enclosure in item.enclosures {
            guard enclosure.url.hasPrefix("http://") || enclosure.url.hasPrefix("https://"), FeedURL.isHTTP(enclosure.url) else {
                fatalError("an enclosure that is not http or https: \(enclosure.url.debugDescription)")
            }
        }
    }
    if let moved = feed.newFeedURL, !FeedURL.isHTTP(moved) {
        fatalError("a new-feed-url that is not http or https: \(moved.debugDescription)")
    }
    for warning in feed.warnings { check(message: warning.message) }
    let (episodes, warnings) = EpisodeList.episodes(of: feed, feedTitle: "Fuzz")
    for warning in warnings { check(message: warning.message) }
    for episode in episodes {
        let name = EpisodeFileName.make(for: episode, feedTitle: "Fuzz")
        guard !name.isEmpty, !name.hasPrefix("."), !name.hasPrefix(" "), !name.hasSuffix(" "), !StagingName.isReserved(name),
              !name.unicodeScalars.contains(where: { $0 == "/" || isControl($0) || SafeFileName.isBidiControl($0) }),
              name.utf8.count <= EpisodeFileName.maximumBytes
        else {
            fatalError("an unsafe file name: \(name.debugDescription)")
        }
    }
    _ = EpisodeMatcher.match(episodes, known: [0: Set(episodes.first.map(EpisodeKey.keys(of:)) ?? [])])
}

private func check(message: String) {
    guard !message.isEmpty, !message.unicodeScalars.contains(where: isControl) else {
        fatalError("a message with a raw control character: \(message.debugDescription)")
    }
}

private func isControl(_ scalar: Unicode.Scalar) -> Bool {
    scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
}
