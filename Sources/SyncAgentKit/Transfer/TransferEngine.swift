/// Brings many files up to date at once, through one libcurl multi handle on one thread.
///
/// Admission is the engine's own: at most `limits.concurrent` transfers run, at most
/// `limits.perHost` per host, the rest wait in per-host queues taken round-robin. Between
/// events the thread sleeps in `curl_multi_poll` — until a socket or curl timer needs it, or
/// until the next retry is due — so a waiting engine costs no CPU.
///
/// Not thread-safe: create it and call ``run(_:onEvent:)`` on one thread.
public final class TransferEngine {
    private let limits: Manifest.Limits
    private let backoff: RetryBackoff
    private let options: TransferOptions
    private let unitRandom: () -> Double
    private let clock = ContinuousClock()
    private let multi = CurlMulti()

    /// - Parameter unitRandom: jitter for retry waits, in 0..<1 (injected so tests can pin it).
    public init(
        limits: Manifest.Limits,
        retry: Manifest.RetryPolicy,
        options: TransferOptions = TransferOptions(),
        unitRandom: @escaping () -> Double = { Double.random(in: 0..<1) }
    ) {
        self.limits = limits
        self.backoff = RetryBackoff(policy: retry)
        self.options = options
        self.unitRandom = unitRandom
        multi.setMaximumConnectionsPerHost(limits.perHost)
    }

    /// Runs every request to its end — downloaded, unchanged, or failed after its retries —
    /// reporting each step to `onEvent` on this thread, and returns when all are over.
    public func run(_ requests: [TransferRequest], onEvent: @escaping (TransferEvent) -> Void) {
        var batch = Batch(requests: requests)
        while !batch.isOver {
            admit(&batch, onEvent: onEvent)
            perform()
            for (easy, error) in multi.completedTransfers() {
                complete(easy, error: error, in: &batch, onEvent: onEvent)
            }
            reportProgress(&batch, onEvent: onEvent)
            if batch.isOver { break }
            if batch.canAdmit(limits: limits) { continue }
            sleep(until: batch.nextRetryDue)
        }
    }

    // MARK: Steps

    private func admit(_ batch: inout Batch, onEvent: @escaping (TransferEvent) -> Void) {
        batch.requeueRetries(dueBy: clock.now)
        while let request = batch.nextAdmissible(limits: limits) {
            // A fresh handle per transfer: curl refuses some options on a handle reused after a
            // failed name lookup, and connections are pooled by the multi handle anyway.
            let easy = CurlEasy()
            do {
                let download = try Download(request: request, easy: easy, options: options, emit: onEvent)
                try multi.add(easy)
                batch.started(download)
                onEvent(.started(id: request.id, offset: download.offset))
            } catch {
                let failure = FailureClassification.failure(for: error, url: request.url)
                onEvent(.finished(id: request.id, TransferCompletion(outcome: .failed(failure))))
            }
        }
    }

    private func perform() {
        do {
            try multi.perform()
        } catch {
            // Only a misuse of the multi handle or memory exhaustion get here.
            fatalError("curl_multi_perform failed: \(error)")
        }
    }

    private func complete(_ easy: CurlEasy, error: CurlError?, in batch: inout Batch, onEvent: (TransferEvent) -> Void) {
        multi.remove(easy)
        guard let download = batch.ended(easy) else { return }
        var request = download.request
        let attempt = batch.countAttempt(request.id)
        switch download.finish(curlError: error) {
        case .downloaded(let size, let validators):
            onEvent(.finished(id: request.id, TransferCompletion(outcome: .downloaded(bytes: size), validators: validators, size: size)))
        case .notModified:
            onEvent(.finished(id: request.id, TransferCompletion(outcome: .unchanged, validators: request.current)))
        case .restartFromZero:
            request.partial = nil
            if batch.allowRestart(request.id) {
                batch.enqueue(request)
            } else {
                let failure = TransferFailure(.truncated, "the server kept changing the file while it was being downloaded")
                onEvent(.finished(id: request.id, TransferCompletion(outcome: .failed(failure))))
            }
        case .failed(let failure, let partial):
            if let delay = backoff.delay(afterAttempt: attempt, failure: failure, unitRandom: unitRandom()) {
                request.partial = partial
                batch.retry(request, at: clock.now + delay)
                onEvent(.willRetry(id: request.id, delay: delay, failure: failure))
            } else {
                onEvent(.finished(id: request.id, TransferCompletion(outcome: .failed(failure), partial: partial)))
            }
        }
    }

    private func reportProgress(_ batch: inout Batch, onEvent: (TransferEvent) -> Void) {
        let now = clock.now
        guard now - batch.lastProgressReport >= options.progressInterval else { return }
        batch.lastProgressReport = now
        for download in batch.activeDownloads where batch.progressChanged(download) {
            onEvent(.progress(id: download.request.id, received: download.received, expectedLength: download.expectedLength))
        }
    }

    /// Sleeps in curl until there is work: socket activity, a curl timer, or `instant`.
    private func sleep(until instant: ContinuousClock.Instant?) {
        // curl_multi_poll also wakes for its own timers, so a long cap costs nothing.
        var timeout = Duration.seconds(60)
        if let instant { timeout = min(timeout, max(.zero, instant - clock.now)) }
        do {
            try multi.poll(timeout: timeout)
        } catch {
            fatalError("curl_multi_poll failed: \(error)")
        }
    }
}
