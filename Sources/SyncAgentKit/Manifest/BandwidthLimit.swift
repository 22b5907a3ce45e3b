extension Manifest {
    /// The whole agent's bandwidth budget (`limits.bandwidth` and `limits.bandwidth_windows`),
    /// in bytes per second.
    public struct BandwidthLimit: Sendable, Equatable {
        /// A cap that applies inside a daily window of local time.
        public struct Window: Sendable, Equatable {
            public var window: DailyWindow
            public var bytesPerSecond: Int64

            public init(window: DailyWindow, bytesPerSecond: Int64) {
                self.window = window
                self.bytesPerSecond = bytesPerSecond
            }
        }

        /// The cap outside every window; `nil`: unlimited.
        public var bytesPerSecond: Int64?
        /// Caps by time of day; the first window that is open wins over ``bytesPerSecond``.
        public var windows: [Window]

        public init(bytesPerSecond: Int64? = nil, windows: [Window] = []) {
            self.bytesPerSecond = bytesPerSecond
            self.windows = windows
        }

        /// Whether no cap applies at any time.
        public var isUnlimited: Bool { bytesPerSecond == nil && windows.isEmpty }
    }
}
