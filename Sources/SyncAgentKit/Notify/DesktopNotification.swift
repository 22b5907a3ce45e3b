/// One desktop notification as the user will see it: what it says and how much it matters.
///
/// A plain value; a ``Notifier`` turns it into whatever the desktop understands.
public struct DesktopNotification: Sendable, Equatable {
    /// The one-line headline, e.g. "All files have been downloaded!".
    public var summary: String
    /// Plain text under the headline; lines are separated by "\n". May be empty.
    public var body: String
    /// What kind of event this is, so the desktop can group or style it.
    public var category: Category?
    /// How insistently the desktop should show it.
    public var urgency: Urgency
    /// A Freedesktop icon-theme name, e.g. "dialog-error"; `nil` for the server's default.
    public var iconName: String?
    /// What it is about: a new notification on the same topic replaces the one shown before.
    public var topic: Topic
    /// Buttons, where the server shows actions; the first ``Action/isDefault`` one also runs
    /// on a click on the notification itself.
    public var actions: [Action]
    /// A Freedesktop sound-theme name, e.g. "complete-download", played where the server
    /// supports sounds; `nil` for silence.
    public var soundName: String?

    public init(
        summary: String,
        body: String = "",
        category: Category? = nil,
        urgency: Urgency = .normal,
        iconName: String? = nil,
        topic: Topic = .batch,
        actions: [Action] = [],
        soundName: String? = nil
    ) {
        self.summary = summary
        self.body = body
        self.category = category
        self.urgency = urgency
        self.iconName = iconName
        self.topic = topic
        self.actions = actions
        self.soundName = soundName
    }
}

extension DesktopNotification {
    /// How insistently a notification is shown, as the Desktop Notifications spec defines it.
    ///
    /// - SeeAlso: https://specifications.freedesktop.org/notification-spec/latest/urgency-levels.html
    public enum Urgency: Sendable, Equatable, CaseIterable {
        /// Can wait; servers may show it quietly.
        case low
        /// The usual level.
        case normal
        /// Needs the user's attention; servers usually keep it until it is dismissed.
        case critical
    }

    /// A notification category from the Desktop Notifications spec, e.g. `transfer.complete`.
    ///
    /// - SeeAlso: https://specifications.freedesktop.org/notification-spec/latest/categories.html
    public struct Category: RawRepresentable, Hashable, Sendable {
        /// The dotted name sent to the server.
        public var rawValue: String

        public init(rawValue: String) {
            self.rawValue = rawValue
        }

        /// A batch of files arrived.
        public static let transferComplete = Category(rawValue: "transfer.complete")
        /// Some files of a batch could not be fetched.
        public static let transferError = Category(rawValue: "transfer.error")
    }
}
