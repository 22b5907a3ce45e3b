/// What the control commands do when no agent runs: `pause`, `stop`, `resume` and `start`
/// record the change in the saved state (the agent follows it when it starts, and `--once`
/// leaves held files alone), `reset` works on the state directly, and `status` reads it.
///
/// The caller holds the agent lock, so no agent can start and work on the state meanwhile.
public enum OfflineControl {
    /// Records a `pause`, `stop`, `resume` or `start` of `titles` (none: every file) and
    /// returns what was recorded, in words for the user.
    public static func record(_ command: ControlRequest.Command, of entries: [Manifest.Entry], all: Bool, in manifest: Manifest, store: StateStore) throws(StateStoreError) -> String {
        switch command {
        case .pause: try Holds.hold(entries, in: manifest, as: .paused, store: store)
        case .stop: try Holds.hold(entries, in: manifest, as: .stopped, store: store)
        case .resume, .start: try Holds.release(entries, in: manifest, store: store)
        case .status, .reset: preconditionFailure("\(command) is not a hold")
        }
        return HoldChange(command: command, entries: entries, all: all).recorded
    }

    /// Deletes the manifest's files and forgets the state (see ``Reset``); returns what it did.
    public static func reset(_ manifest: Manifest, store: StateStore) throws(StateStoreError) -> String {
        Reset.summary(deleted: try Reset.run(manifest: manifest, store: store), of: manifest)
    }

    /// Every file of the manifest as the saved state describes it.
    public static func status(of manifest: Manifest, store: StateStore) throws(StateStoreError) -> [FileStatus] {
        try FileStatus.saved(manifest: manifest, store: store)
    }
}
