/// What the control commands do when no agent runs: `pause`, `stop`, `resume` and `start`
/// record the change in the saved state (the agent follows it when it starts, and `--once`
/// leaves held files alone), `reset` works on the state directly, and `status` reads it.
///
/// The caller holds the agent lock, so no agent can start and work on the state meanwhile.
public enum OfflineControl {
    /// Records a `pause`, `stop`, `resume` or `start` of `targets` (`all`: the user named
    /// none) and returns what was recorded, in words for the user.
    public static func record(_ command: ControlRequest.Command, of targets: HoldTargets, all: Bool, in manifest: Manifest, store: StateStore) throws(StateStoreError) -> String {
        switch command {
        case .pause: try Holds.hold(targets, in: manifest, as: .paused, store: store)
        case .stop: try Holds.hold(targets, in: manifest, as: .stopped, store: store)
        case .resume, .start: try Holds.release(targets, in: manifest, starting: command == .start, store: store)
        case .status, .reset: preconditionFailure("\(command) is not a hold")
        }
        return HoldChange(command: command, targets: targets, all: all).recorded
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
