extension ManifestValidator {
    /// The keys `notify` takes in its mapping form.
    static let notifyKeys = ["enabled", "sound"]

    /// `notify`: `true` or `false`, or a mapping such as `{ sound: false }` — notifications on
    /// (unless `enabled: false`), with or without a sound where the desktop plays one.
    mutating func readNotify(_ node: YAMLNode, into manifest: inout Manifest) {
        guard case .mapping(let entries) = node.value else {
            if let notify = boolean(node, for: "notify") { manifest.notify = notify }
            return
        }
        for entry in entries {
            switch entry.key {
            case "enabled":
                if let enabled = boolean(entry.value, for: "enabled") { manifest.notify = enabled }
            case "sound":
                if let sound = boolean(entry.value, for: "sound") { manifest.notifySound = sound }
            default:
                reportUnknownKey(entry, where: "in `notify`", known: Self.notifyKeys)
            }
        }
    }
}
