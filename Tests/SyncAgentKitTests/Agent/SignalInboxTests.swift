import Glibc
import Testing
@testable import SyncAgentKit

/// Signals become requests on a descriptor. Every signal here is sent with `pthread_kill` to
/// the test's own thread, after the inbox blocked it there: the test runner has other
/// threads, and a process-wide SIGTERM or SIGINT reaching one of them would end the run.
struct SignalInboxTests {
    static let handled: [Int32] = [SIGTERM, SIGINT, SIGHUP]

    /// Runs `body` with a new inbox made on this thread. Afterwards it consumes any of the
    /// three signals still pending here (a failed expectation may leave one), while the inbox
    /// still blocks them, so that the inbox's unblocking cannot deliver one to its default
    /// action; then restores the thread's mask as the test runner left it.
    func withInbox(_ body: (SignalInbox) throws -> Void) rethrows {
        var previous = sigset_t()
        pthread_sigmask(SIG_SETMASK, nil, &previous)
        var inbox: SignalInbox? = SignalInbox()
        defer {
            withExtendedLifetime(inbox) {
                var pending = Self.signalSet(Self.handled)
                var now = timespec()
                while sigtimedwait(&pending, nil, &now) > 0 {}
            }
            inbox = nil
            pthread_sigmask(SIG_SETMASK, &previous, nil)
        }
        try body(inbox!)
    }

    static func signalSet(_ signals: [Int32]) -> sigset_t {
        var set = sigset_t()
        sigemptyset(&set)
        for signal in signals { sigaddset(&set, signal) }
        return set
    }

    /// Sends `signal` to this thread only.
    func raiseHere(_ signal: Int32) {
        #expect(pthread_kill(pthread_self(), signal) == 0)
    }

    /// Whether the descriptor is readable within `limit`. A signal sent to this thread is
    /// pending before `pthread_kill` returns, so `.zero` is no race.
    func readable(_ inbox: SignalInbox, within limit: Int32 = 0) -> Bool {
        var entry = pollfd(fd: inbox.descriptor, events: Int16(POLLIN), revents: 0)
        return poll(&entry, 1, limit) == 1
    }

    /// Whether every handled signal is blocked on this thread.
    func handledSignalsBlocked() -> Bool {
        var mask = sigset_t()
        pthread_sigmask(SIG_SETMASK, nil, &mask)
        return Self.handled.allSatisfy { sigismember(&mask, $0) == 1 }
    }

    @Test func withNoSignalThereIsNothingToTake() {
        withInbox { inbox in
            #expect(!readable(inbox))
            #expect(inbox.take() == [])
        }
    }

    @Test func hangUpAsksToReload() {
        withInbox { inbox in
            raiseHere(SIGHUP)
            #expect(readable(inbox, within: 10_000))
            #expect(inbox.take() == [.reload])
            #expect(!readable(inbox))
        }
    }

    @Test func terminateAsksToStop() {
        withInbox { inbox in
            raiseHere(SIGTERM)
            #expect(readable(inbox, within: 10_000))
            #expect(inbox.take() == [.stop])
            #expect(!readable(inbox))
        }
    }

    @Test func interruptAsksToStop() {
        withInbox { inbox in
            raiseHere(SIGINT)
            #expect(readable(inbox, within: 10_000))
            #expect(inbox.take() == [.stop])
            #expect(!readable(inbox))
        }
    }

    @Test func requestsComeInTheOrderTheSignalsCame() {
        withInbox { inbox in
            raiseHere(SIGHUP)
            #expect(inbox.take() == [.reload])
            raiseHere(SIGTERM)
            #expect(inbox.take() == [.stop])
            raiseHere(SIGHUP)
            #expect(inbox.take() == [.reload])
            raiseHere(SIGINT)
            #expect(inbox.take() == [.stop])
        }
    }

    /// The kernel keeps one pending instance of each classic signal and hands them out by
    /// number, not by arrival: a stop and a reload waiting together both arrive, the reload
    /// (SIGHUP is 1) first.
    @Test func signalsWaitingTogetherAreAllTaken() {
        withInbox { inbox in
            raiseHere(SIGTERM)
            raiseHere(SIGHUP)
            raiseHere(SIGHUP)
            #expect(inbox.take() == [.reload, .stop])
            #expect(!readable(inbox))
        }
    }

    @Test func theSignalsAreBlockedWhileTheInboxLivesAndUnblockedAfter() {
        var previous = sigset_t()
        pthread_sigmask(SIG_SETMASK, nil, &previous)
        defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
        var inbox: SignalInbox? = SignalInbox()
        #expect(handledSignalsBlocked())
        withExtendedLifetime(inbox) {}
        inbox = nil
        var mask = sigset_t()
        pthread_sigmask(SIG_SETMASK, nil, &mask)
        #expect(Self.handled.allSatisfy { sigismember(&mask, $0) == 0 })
    }
}
