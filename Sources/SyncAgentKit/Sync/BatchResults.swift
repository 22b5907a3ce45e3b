/// The results of the batch under way, kept small until the batch ends: a file of the
/// manifest that was downloaded or found unchanged is its place among the manifest's files
/// and its size (its title and path are the manifest's), 16 bytes instead of a whole
/// ``FileResult`` and its path. Failures, episodes, feeds and files kept under a name their
/// server gave are kept whole.
struct BatchResults {
    /// Places among the manifest's files, with the bytes downloaded, or -1 for unchanged.
    private var compact: [(place: Int32, bytes: Int64)] = []
    /// The other results, as they came.
    private var whole: [FileResult] = []

    var isEmpty: Bool { compact.isEmpty && whole.isEmpty }

    /// Adds `result`; `place` is the file's place among the manifest's files when the
    /// result's title and path are that entry's, else `nil`.
    mutating func add(_ result: FileResult, place: Int?) {
        add(result.outcome, place: result.feed == nil ? place : nil) { result }
    }

    /// Adds the result of `outcome`: kept by `place` when it can be (see ``add(_:place:)``;
    /// `place` is `nil` for an episode's), else whole, as `result` makes it. Made only then:
    /// most results of a batch are kept by place, and making each whole first retained and
    /// released its strings for nothing.
    mutating func add(_ outcome: TransferOutcome, place: Int?, result: () -> FileResult) {
        if let place, let small = Int32(exactly: place) {
            switch outcome {
            case .downloaded(let bytes) where bytes >= 0:
                compact.append((small, bytes))
                return
            case .unchanged:
                compact.append((small, -1))
                return
            case .downloaded, .failed:
                break
            }
        }
        whole.append(result())
    }

    /// Which of `count` files of the manifest have a result kept by place: `true` at each of
    /// those places.
    func places(amongFiles count: Int) -> [Bool] {
        var told = [Bool](repeating: false, count: count)
        for (place, _) in compact where Int(place) < count { told[Int(place)] = true }
        return told
    }

    /// The paths of the results kept whole.
    var wholePaths: Set<String> { Set(whole.map(\.path)) }

    /// Every result in the order of `manifest`'s files — whose places the compact ones hold —
    /// and those of no file of it last, as they came; the results are then empty.
    mutating func take(toldWith manifest: Manifest) -> [FileResult] {
        var compact = self.compact
        let whole = self.whole
        self = BatchResults()
        compact.sort { $0.place < $1.place }
        let placedWhole = Self.placed(whole, in: manifest)
        var results: [FileResult] = []
        results.reserveCapacity(compact.count + whole.count)
        var next = placedWhole.startIndex
        for (place, bytes) in compact {
            while next < placedWhole.endIndex, placedWhole[next].place < Int(place) {
                results.append(placedWhole[next].result)
                next += 1
            }
            let entry = manifest.files[Int(place)]
            results.append(FileResult(title: entry.title, path: manifest.destinationPath(of: entry), outcome: bytes < 0 ? .unchanged : .downloaded(bytes: bytes)))
        }
        results.append(contentsOf: placedWhole[next...].map(\.result))
        return results
    }

    /// Keeps every result whole from now on, told with `manifest`: for a driver about to use
    /// another one, in whose files the places mean nothing.
    mutating func makeWhole(toldWith manifest: Manifest) {
        guard !compact.isEmpty else { return }
        whole = take(toldWith: manifest)
    }

    /// `results` with their places among `manifest`'s files, found by path (`Int.max`: none),
    /// in that order; those of the same place as they came.
    private static func placed(_ results: [FileResult], in manifest: Manifest) -> [(place: Int, result: FileResult)] {
        guard !results.isEmpty else { return [] }
        let paths = Set(results.map(\.path))
        var places: [String: Int] = [:]
        for (place, entry) in manifest.files.enumerated() {
            let path = manifest.destinationPath(of: entry)
            if paths.contains(path), places[path] == nil { places[path] = place }
        }
        return results.enumerated()
            .map { (place: places[$0.element.path] ?? .max, arrival: $0.offset, result: $0.element) }
            .sorted { ($0.place, $0.arrival) < ($1.place, $1.arrival) }
            .map { ($0.place, $0.result) }
    }
}
