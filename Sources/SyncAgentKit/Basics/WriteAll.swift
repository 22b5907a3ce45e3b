import Glibc

/// Writes all of `bytes` to `descriptor`, however many calls it takes; returns the `errno`
/// of a failed write, or `nil`.
func writeAll(_ descriptor: Int32, _ bytes: some Sequence<UInt8>) -> Int32? {
    Array(bytes).withUnsafeBytes { buffer -> Int32? in
        var offset = 0
        while offset < buffer.count {
            let count = write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return count < 0 ? errno : EIO }
            offset += count
        }
        return nil
    }
}
