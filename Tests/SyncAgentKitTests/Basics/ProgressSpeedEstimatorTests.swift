import Foundation
import Testing
@testable import SyncAgentKit

struct ProgressSpeedEstimatorTests {
    @Test func knowsNothingFromOneSample() {
        var estimator = ProgressSpeedEstimator()
        estimator.record(totalBytes: 1_000_000, at: .seconds(5))
        #expect(estimator.bytesPerSecond == nil)
    }

    @Test func measuresASteadyRate() throws {
        var estimator = ProgressSpeedEstimator()
        for step in 0...20 {
            estimator.record(totalBytes: Int64(step) * 500_000, at: .milliseconds(step * 500))
        }
        let rate = try #require(estimator.bytesPerSecond)
        #expect(abs(rate - 1_000_000) < 0.001)
    }

    @Test func doesNotCountTheBytesAResumeStartedFrom() {
        var estimator = ProgressSpeedEstimator()
        estimator.record(totalBytes: 50_000_000, at: .seconds(10))
        estimator.record(totalBytes: 51_000_000, at: .seconds(11))
        #expect(estimator.bytesPerSecond == 1_000_000)
    }

    @Test func foldsSamplesThatComeTooCloseTogether() {
        var estimator = ProgressSpeedEstimator(minimumInterval: .milliseconds(250))
        estimator.record(totalBytes: 0, at: .zero)
        estimator.record(totalBytes: 900_000, at: .milliseconds(100))
        #expect(estimator.bytesPerSecond == nil)
        estimator.record(totalBytes: 1_000_000, at: .milliseconds(500))
        #expect(estimator.bytesPerSecond == 2_000_000)
    }

    @Test func fadesTowardsANewRateOverTheTimeConstant() throws {
        var estimator = ProgressSpeedEstimator(timeConstant: .seconds(3))
        estimator.record(totalBytes: 0, at: .zero)
        estimator.record(totalBytes: 1_000_000, at: .seconds(1))
        // The transfer stalls: after one time constant, e^-1 of the old rate is left.
        for second in 2...4 {
            estimator.record(totalBytes: 1_000_000, at: .seconds(second))
        }
        let rate = try #require(estimator.bytesPerSecond)
        #expect(abs(rate - 1_000_000 * exp(-1)) < 0.01)
    }

    @Test func smoothsTheSameWhateverTheSampleRate() throws {
        var coarse = ProgressSpeedEstimator()
        var fine = ProgressSpeedEstimator()
        coarse.record(totalBytes: 0, at: .zero)
        coarse.record(totalBytes: 2_000_000, at: .seconds(1))
        coarse.record(totalBytes: 2_000_000, at: .seconds(3))
        fine.record(totalBytes: 0, at: .zero)
        fine.record(totalBytes: 2_000_000, at: .seconds(1))
        for tick in 1...8 {
            fine.record(totalBytes: 2_000_000, at: .seconds(1) + .milliseconds(tick * 250))
        }
        let coarseRate = try #require(coarse.bytesPerSecond)
        let fineRate = try #require(fine.bytesPerSecond)
        #expect(abs(coarseRate - fineRate) < 0.01)
        #expect(abs(coarseRate - 2_000_000 * exp(-2.0 / 3)) < 0.01)
    }

    @Test func startsOverWhenTheDownloadRestartsFromZero() {
        var estimator = ProgressSpeedEstimator()
        estimator.record(totalBytes: 0, at: .zero)
        estimator.record(totalBytes: 5_000_000, at: .seconds(1))
        estimator.record(totalBytes: 10, at: .seconds(2))
        #expect(estimator.bytesPerSecond == nil)
        estimator.record(totalBytes: 1_000_010, at: .seconds(3))
        #expect(estimator.bytesPerSecond == 1_000_000)
    }

    @Test func startsOverWhenTimeGoesBack() {
        var estimator = ProgressSpeedEstimator()
        estimator.record(totalBytes: 0, at: .seconds(10))
        estimator.record(totalBytes: 1_000_000, at: .seconds(11))
        estimator.record(totalBytes: 2_000_000, at: .seconds(1))
        #expect(estimator.bytesPerSecond == nil)
    }
}
