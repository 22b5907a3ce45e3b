extension DesktopNotification {
    /// What a notification is about. The agent keeps one living notification per topic: a
    /// new one replaces the last (`replaces_id`), and a topic can be withdrawn.
    public enum Topic: String, Sendable, Hashable, CaseIterable {
        /// The summary of a finished batch.
        case batch
        /// A manifest that cannot be used; withdrawn once the manifest is valid again.
        case manifestProblem = "manifest-problem"
    }

    /// One button on a notification, and what it does when the user picks it.
    public struct Action: Sendable, Equatable {
        /// What the action does.
        public enum Effect: Sendable, Equatable {
            /// Shows these files selected in the file manager (FileManager1 `ShowItems`);
            /// the folder itself when there are none.
            case showItems(folder: String, files: [String])
            /// Opens the file with the desktop's default application for its type.
            case open(file: String)
            /// Asks the running agent to start these files (absolute paths) again now.
            case retry(files: [String])
        }

        /// The action key sent to the server; "default" is the click on the notification.
        public var key: String
        /// The button's label.
        public var label: String
        public var effect: Effect

        public init(key: String, label: String, effect: Effect) {
            self.key = key
            self.label = label
            self.effect = effect
        }

        /// Whether this is the click on the notification itself rather than a button.
        public var isDefault: Bool { key == "default" }

        /// A click on the notification: the folder, with the files selected.
        public static func clickShowsFolder(_ folder: String, files: [String]) -> Action {
            Action(key: "default", label: "Open Folder", effect: .showItems(folder: folder, files: files))
        }

        /// "Open Folder": the folder, with the files selected.
        public static func openFolder(_ folder: String, files: [String]) -> Action {
            Action(key: "open-folder", label: "Open Folder", effect: .showItems(folder: folder, files: files))
        }

        /// "Open": the one new file, in its default application.
        public static func open(_ file: String) -> Action {
            Action(key: "open", label: "Open", effect: .open(file: file))
        }

        /// "Retry now": the failed files start again at once.
        public static func retry(_ files: [String]) -> Action {
            Action(key: "retry", label: "Retry now", effect: .retry(files: files))
        }

        /// "Show details": every failure, in the text file the agent wrote them to.
        public static func showDetails(_ file: String) -> Action {
            Action(key: "details", label: "Show details", effect: .open(file: file))
        }

        /// "Edit manifest": the manifest in the default editor.
        public static func editManifest(_ file: String) -> Action {
            Action(key: "edit-manifest", label: "Edit manifest", effect: .open(file: file))
        }
    }
}
