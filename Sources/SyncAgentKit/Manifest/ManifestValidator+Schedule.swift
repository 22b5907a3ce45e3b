extension ManifestValidator {
    /// The keys `schedule` may have; a file entry may have them too, to override them.
    static let scheduleKeys = ["every", "not_before", "window", "discretionary"]

    /// Reads the manifest's `schedule` mapping over the defaults in `schedule`.
    mutating func readSchedule(_ node: YAMLNode, into schedule: inout Manifest.Schedule) {
        guard let entries = mapping(node, for: "schedule", example: "{ every: 1d, window: \"01:00-06:00\" }") else { return }
        for entry in entries where !readScheduleKey(entry, into: &schedule) {
            reportUnknownKey(entry, where: "in `schedule`", known: Self.scheduleKeys)
        }
    }

    /// Reads `entry` into `schedule` when its key is a schedule key, reporting a bad value;
    /// returns false, doing nothing, for any other key.
    mutating func readScheduleKey(_ entry: YAMLMappingEntry, into schedule: inout Manifest.Schedule) -> Bool {
        let node = entry.value
        switch entry.key {
        case "every":
            guard let text = text(node, for: "every", expected: "a duration like \"6h\" or \"1d\"") else { break }
            do {
                schedule.every = try EveryText.parse(text)
            } catch {
                report(.badValue, at: node.mark, error.message)
            }
        case "not_before":
            guard let text = text(node, for: "not_before", expected: "a moment like \"2026-12-01T08:00:00+01:00\" or a day like \"2026-12-01\"") else { break }
            do {
                schedule.notBefore = try NotBeforeText.parse(text)
            } catch {
                report(.badValue, at: node.mark, error.message)
            }
        case "window":
            guard let text = text(node, for: "window", expected: "a daily window of local time like \"01:00-06:00\"") else { break }
            do {
                schedule.window = try DailyWindowText.parse(text)
            } catch {
                report(.badValue, at: node.mark, error.message)
            }
        case "discretionary":
            if let discretionary = boolean(node, for: "discretionary") { schedule.discretionary = discretionary }
        default:
            return false
        }
        return true
    }
}
