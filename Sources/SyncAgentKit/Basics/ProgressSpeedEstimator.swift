import FoundationEssentials
import Glibc

/// Estimates a transfer's speed from timestamped byte counts, smoothed so the number on
/// screen does not jump with every network hiccup.
///
/// An exponentially weighted moving average in continuous time: a sample `dt` after the
/// previous one moves the estimate by `1 - exp(-dt / timeConstant)` of the way towards the
/// rate seen since then. That weights the last few seconds most, whatever the callback
/// rate, so a flood of tiny updates and a slow trickle give the same answer.
///
/// Times are injected as the duration since any fixed origin the caller picks; the
/// estimator never reads a clock.
public struct ProgressSpeedEstimator: Sendable, Equatable {
    /// How quickly old samples fade: after one time constant, a change in speed is about
    /// two thirds reflected in the estimate.
    public let timeConstant: Duration
    /// Samples closer together than this are folded into the next one, because rates over
    /// a few milliseconds are mostly noise.
    public let minimumInterval: Duration

    /// The smoothed speed, or `nil` until two samples far enough apart were seen.
    public private(set) var bytesPerSecond: Double?

    private var baseline: Sample?

    /// A byte count and when it was seen.
    private struct Sample: Sendable, Equatable {
        var bytes: Int64
        var time: Duration
    }

    /// An estimator with nothing seen yet.
    public init(timeConstant: Duration = .seconds(3), minimumInterval: Duration = .milliseconds(250)) {
        precondition(timeConstant > .zero, "a speed estimator needs a positive time constant")
        self.timeConstant = timeConstant
        self.minimumInterval = minimumInterval
    }

    /// Takes in how many bytes the transfer has received in all, at `time`.
    ///
    /// The first sample is only a baseline, so a resumed transfer's earlier bytes do not
    /// count as speed. A count that goes down (the download restarted from zero) or a time
    /// that goes back starts over.
    public mutating func record(totalBytes: Int64, at time: Duration) {
        guard let previous = baseline, totalBytes >= previous.bytes, time >= previous.time else {
            baseline = Sample(bytes: totalBytes, time: time)
            bytesPerSecond = nil
            return
        }
        let interval = time - previous.time
        guard interval >= minimumInterval, interval > .zero else { return }
        let seconds = interval.progressSeconds
        let observed = Double(totalBytes - previous.bytes) / seconds
        if let estimate = bytesPerSecond {
            let weight = 1 - exp(-seconds / timeConstant.progressSeconds)
            bytesPerSecond = estimate + weight * (observed - estimate)
        } else {
            bytesPerSecond = observed
        }
        baseline = Sample(bytes: totalBytes, time: time)
    }
}
