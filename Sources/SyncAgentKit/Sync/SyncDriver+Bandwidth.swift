import FoundationEssentials

extension SyncDriver {
    /// The bandwidth cap in force for the agent (`bandwidth`, `bandwidth_windows`); `nil`
    /// for `--once` (a user waiting at the terminal wants speed) unless ``limitRate`` is set.
    func applyBandwidthCap() {
        if let limitRate {
            engine.bytesPerSecond = limitRate
            return
        }
        guard mode == .onSchedule, let manifest, !manifest.limits.bandwidth.isUnlimited else {
            engine.bytesPerSecond = nil
            return
        }
        let now = now()
        if let until = bandwidthCapUntil, now < until { return }
        let cap = BandwidthSchedule(limit: manifest.limits.bandwidth, timeZone: timeZone).cap(at: now)
        engine.bytesPerSecond = cap.bytesPerSecond
        bandwidthCapUntil = cap.until ?? .distantFuture
    }
}
