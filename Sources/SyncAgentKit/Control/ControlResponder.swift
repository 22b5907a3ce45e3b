import Logging

/// The running agent's answers to `syncagent status`, `pause`, `resume`, `stop`, `start` and
/// `reset`: each request carried out on the ``SyncDriver`` and answered in one line.
struct ControlResponder {
    let driver: SyncDriver
    let logger: Logger

    func answer(_ request: ControlRequest) -> ControlResponse {
        guard let manifest = driver.manifest else {
            return .failure("the manifest cannot be used, so no file is known; fix it first (the log says what is wrong)")
        }
        let episodes: [String: [StoredEpisode]]
        let targets: HoldTargets
        do throws(StateStoreError) {
            episodes = try HoldTargets.namedEpisodes(of: manifest, store: driver.store)
        } catch {
            return .failure(error.description)
        }
        do throws(TitleMatchError) {
            targets = try TitleMatcher.targets(request.titles, in: manifest, episodes: episodes)
        } catch {
            return .failure(error.message)
        }
        let change = HoldChange(command: request.command, targets: targets, all: request.titles.isEmpty)
        do throws(StateStoreError) {
            switch request.command {
            case .status:
                return ControlResponse(ok: true, message: "the agent is running", files: try driver.status())
            case .pause, .stop:
                try driver.hold(targets, as: request.command == .pause ? .paused : .stopped)
            case .resume, .start:
                try driver.release(targets, starting: request.command == .start)
            case .reset:
                let deleted = try driver.reset()
                logger.notice("reset by the user: \(counted(deleted.count, "file")) deleted, state forgotten")
                return ControlResponse(ok: true, message: Reset.summary(deleted: deleted, of: manifest))
            }
        } catch {
            return .failure(error.description)
        }
        let message = change.doneNow
        logger.notice("\(message), asked by the user")
        return ControlResponse(ok: true, message: message)
    }
}
