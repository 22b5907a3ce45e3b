/// Where one running transfer stands, for `syncagent status`.
struct TransferProgress {
    var received: Int64
    var expected: Int64?
    private var speed = ProgressSpeedEstimator()
    /// The moment the speed estimator counts from.
    private let origin: ContinuousClock.Instant

    init(received: Int64, origin: ContinuousClock.Instant) {
        self.received = received
        self.origin = origin
        speed.record(totalBytes: received, at: .zero)
    }

    mutating func update(received: Int64, expected: Int64?, at now: ContinuousClock.Instant) {
        self.received = received
        if let expected { self.expected = expected }
        speed.record(totalBytes: received, at: now - origin)
    }

    var bytesPerSecond: Double? { speed.bytesPerSecond }
}
