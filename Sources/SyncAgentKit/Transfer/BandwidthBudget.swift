/// The whole agent's bandwidth budget, shared by the transfers that run: a token budget that
/// refills at the cap's rate and is split into equal credits for the active transfers. A
/// transfer out of credit is paused (its write callback returns `CURL_WRITEFUNC_PAUSE`) until
/// the next refill; credit a slow transfer leaves unused beyond a small reserve goes to a
/// shared pool the others draw from. libcurl's own `CURLOPT_MAX_RECV_SPEED_LARGE` is per
/// transfer and unreliable when changed mid-transfer, hence this.
///
/// Pure: time comes in as `ContinuousClock.Instant` arguments, so it is tested without sleeps.
struct BandwidthBudget {
    /// How often paused transfers are given new credit: often enough to keep the cap smooth,
    /// rarely enough to cost nothing (and only while something is paused).
    static let refillInterval: Duration = .milliseconds(50)
    /// The largest chunk curl hands a write callback (`CURL_MAX_WRITE_SIZE`): a transfer must
    /// be able to save up that much, or a small share would pause it forever.
    static let largestChunk: Int64 = 16 << 10

    /// The cap in bytes per second; `nil`: unlimited.
    var bytesPerSecond: Int64?
    /// Each active transfer's unspent credit, by id.
    private var credits: [Int: Int64] = [:]
    /// Credit that anyone may spend.
    private var shared: Int64 = 0
    private var lastRefill: ContinuousClock.Instant?

    init(bytesPerSecond: Int64? = nil) {
        self.bytesPerSecond = bytesPerSecond
    }

    /// A transfer started.
    mutating func join(_ id: Int) {
        credits[id] = credits[id] ?? 0
    }

    /// A transfer ended; what it did not spend goes to the others.
    mutating func leave(_ id: Int) {
        shared += credits.removeValue(forKey: id) ?? 0
    }

    /// Whether transfer `id` may take `bytes` now; when it may, they are spent.
    mutating func take(_ bytes: Int, for id: Int, at now: ContinuousClock.Instant) -> Bool {
        guard let rate = bytesPerSecond else { return true }
        refill(at: now, rate: rate)
        let own = credits[id] ?? 0
        // A chunk larger than anyone can save up passes once the savings are full.
        let needed = min(Int64(bytes), reserve(forShare: share(of: rate)))
        if own >= needed {
            credits[id] = own - Int64(bytes)
            return true
        }
        if own + shared >= needed {
            shared -= Int64(bytes) - own
            credits[id] = 0
            return true
        }
        return false
    }

    /// When a paused transfer may try again.
    func nextRefill(after now: ContinuousClock.Instant) -> ContinuousClock.Instant {
        (lastRefill ?? now) + Self.refillInterval
    }

    /// A transfer's share of one refill at `rate`.
    private func share(of rate: Int64) -> Int64 {
        rate * Self.refillInterval.milliseconds / 1000 / Int64(max(1, credits.count))
    }

    /// The most credit a transfer keeps: two refills' share, and never less than two chunks.
    private func reserve(forShare share: Int64) -> Int64 {
        max(2 * share, 2 * Self.largestChunk)
    }

    private mutating func refill(at now: ContinuousClock.Instant, rate: Int64) {
        guard let last = lastRefill else {
            lastRefill = now
            return
        }
        let elapsed = now - last
        guard elapsed >= Self.refillInterval else { return }
        lastRefill = now
        let amount = Int64(Double(rate) * (Double(elapsed.milliseconds) / 1000))
        guard !credits.isEmpty else {
            shared = min(shared + amount, reserve(forShare: amount))
            return
        }
        let each = amount / Int64(credits.count)
        let reserve = reserve(forShare: share(of: rate))
        var spare = amount - each * Int64(credits.count)
        for (id, credit) in credits {
            let topped = credit + each
            credits[id] = min(topped, reserve)
            spare += max(0, topped - reserve)
        }
        // Unused credit is kept for a refill or so, not banked: the cap holds over any second.
        shared = min(shared + spare, max(rate * Self.refillInterval.milliseconds / 1000, 2 * Self.largestChunk))
    }
}
