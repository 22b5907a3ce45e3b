extension Manifest {
    /// How much of a disk syncagent leaves free (`limits.min_free`): a size, or a share of the
    /// disk the file is written to.
    public enum FreeSpaceMargin: Sendable, Equatable {
        /// At least this many bytes stay free.
        case bytes(Int64)
        /// At least this many percent (1...99) of the filesystem stay free.
        case percent(Int)

        /// The bytes kept free on a filesystem of `size` bytes.
        public func bytes(ofFilesystemSize size: Int64) -> Int64 {
            switch self {
            case .bytes(let bytes): bytes
            case .percent(let percent): size / 100 * Int64(percent)
            }
        }
    }
}
