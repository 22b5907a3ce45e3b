import Testing
@testable import SyncAgentKit

struct ByteCountTests {
    @Test(arguments: [
        (0, "0 bytes"), (1, "1 byte"), (999, "999 bytes"), (1000, "1.0 KB"),
        (712_000, "712 KB"), (28_600_000, "28.6 MB"), (1_073_741_824, "1.1 GB"), (99_960, "100 KB"),
    ] as [(Int64, String)])
    func formats(bytes: Int64, expected: String) {
        #expect(formatByteCount(bytes) == expected)
    }
}
