/// Why a desktop notification could not be shown, in words fit for a log line.
public typealias NotificationError = DomainError<NotificationDomain>

/// Where a ``NotificationError`` comes from (see ``DomainError``).
public enum NotificationDomain {}

extension ErrorCode where Domain == NotificationError {
    /// There is no session bus to talk to (no address, or nothing listening at it).
    public static let noBus = Self("no-bus")
    /// The session bus is there, but no notification server is running on it.
    public static let noServer = Self("no-server")
    /// A notification server is there but did not answer in time.
    public static let timedOut = Self("timed-out")
    /// libnotify or GLib is not installed (see ``SharedLibrary``).
    public static let noLibnotify = Self("no-libnotify")
    /// Anything else libnotify or the server reported.
    public static let failed = Self("failed")
}
