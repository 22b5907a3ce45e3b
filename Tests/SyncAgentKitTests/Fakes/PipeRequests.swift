import Glibc
@testable import SyncAgentKit

/// Stop and reload requests a test sends through a pipe, where the agent would read signals.
final class PipeRequests: LoopRequests, @unchecked Sendable {
    let descriptor: Int32
    private let writeEnd: Int32

    init() {
        (descriptor, writeEnd) = nonBlockingPipe()
    }

    deinit {
        close(descriptor)
        close(writeEnd)
    }

    /// Sends `request`; safe from any thread.
    func send(_ request: LoopRequest) {
        var byte: UInt8 = request == .stop ? 0 : 1
        _ = write(writeEnd, &byte, 1)
    }

    func take() -> [LoopRequest] {
        var requests: [LoopRequest] = []
        var byte: UInt8 = 0
        while read(descriptor, &byte, 1) == 1 { requests.append(byte == 0 ? .stop : .reload) }
        return requests
    }
}

/// A pipe whose ends never block: (read end, write end).
func nonBlockingPipe() -> (Int32, Int32) {
    var ends: [Int32] = [0, 0]
    precondition(pipe(&ends) == 0)
    for end in ends { _ = fcntl(end, F_SETFL, O_NONBLOCK) }
    return (ends[0], ends[1])
}
