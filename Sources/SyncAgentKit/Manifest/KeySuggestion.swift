/// Finds the key a person probably meant when they wrote one the format does not have.
enum KeySuggestion {
    /// The candidate closest to `key`, if it is close enough to be a likely typo.
    ///
    /// Closeness is the optimal-string-alignment edit distance (insert, delete, replace, swap
    /// two neighbours), ignoring case: "titel" → "title", "perhost" → "per_host".
    static func closest(to key: String, among candidates: [String]) -> String? {
        let typed = Array(key.lowercased().unicodeScalars)
        var best: (candidate: String, distance: Int)?
        for candidate in candidates {
            let distance = editDistance(typed, Array(candidate.unicodeScalars))
            // Short keys tolerate one slip; longer ones two.
            let tolerance = candidate.count <= 4 ? 1 : 2
            if distance <= tolerance, distance < (best?.distance ?? .max) {
                best = (candidate, distance)
            }
        }
        return best?.candidate
    }

    /// Optimal-string-alignment distance between `a` and `b`.
    static func editDistance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        // Three rolling rows: the one before the previous is needed for swaps.
        var beforePrevious = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                var value = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    value = min(value, beforePrevious[j - 2] + 1)
                }
                current[j] = value
            }
            (beforePrevious, previous, current) = (previous, current, beforePrevious)
        }
        return previous[b.count]
    }
}
