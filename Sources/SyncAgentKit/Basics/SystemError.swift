import Glibc

/// The system's reason for a failed call, as the middle of a sentence: "permission denied",
/// "the disk is full". `code` is the `errno` the call left.
func systemReason(_ code: Int32 = errno) -> String {
    switch code {
    case ENOSPC: return "the disk is full"
    case EDQUOT: return "the disk quota is used up"
    default:
        let reason = String(cString: strerror(code))
        return reason.prefix(1).lowercased() + reason.dropFirst()
    }
}
