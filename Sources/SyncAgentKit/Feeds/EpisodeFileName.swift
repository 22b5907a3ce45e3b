import FoundationEssentials

/// The file name an episode is saved under: worked out once from a ``FileNameTemplate`` and
/// stored, so a later title edit never renames a file.
///
/// The name is safe on every filesystem a destination may be on, and can never be taken for
/// a staging file: cleaned by ``SafeFileName``, cut so that `.NAME.part` with a " (99)" before
/// the extension still fits in 255 bytes; the extension from the URL or media type.
public enum EpisodeFileName {
    /// The longest name made, in bytes, extension included: NAME_MAX (255) less what the
    /// staging name adds (".", ".part") and room for a collision suffix up to " (99)".
    public static let maximumBytes = 255 - 1 - StagingName.suffix.utf8.count - 5

    /// The name when nothing else is left after cleaning.
    static let fallback = "episode"

    /// The file name for `item`'s enclosure from the feed the manifest calls `feedTitle`.
    public static func make(for item: FeedItem, template: FileNameTemplate = .standard, feedTitle: String, maximumBytes: Int = maximumBytes) -> String {
        let url = item.enclosure?.url ?? ""
        let urlName = FeedURL.lastPathComponent(of: url)
        let urlStem = urlName.lastIndex(of: ".").map { String(urlName[..<$0]) } ?? urlName
        var text = ""
        for part in template.parts {
            switch part {
            case .text(let literal): text += literal
            case .date: text += item.published?.localDay ?? ""
            case .title: text += item.title
            case .episode: text += item.episode.map(String.init) ?? ""
            case .season: text += item.season.map(String.init) ?? ""
            case .feed: text += feedTitle
            case .urlName: text += urlStem
            }
        }
        let fileExtension = FileExtension.of(url: url, mediaType: item.enclosure?.mediaType).map { "." + $0 } ?? ""
        var stem = SafeFileName.cleaned(text)
        if stem.isEmpty { stem = SafeFileName.cleaned(urlStem) }
        if stem.isEmpty { stem = fallback }
        stem = SafeFileName.cut(stem, toBytes: maximumBytes - fileExtension.utf8.count)
        if stem.isEmpty { stem = fallback }
        let name = stem + fileExtension
        // Cleaning strips leading dots, so this cannot happen; checked with the transfer
        // side's own test because a name of that form would be another download's partial.
        precondition(!name.hasPrefix(".") && !StagingName.isReserved(name), "an episode name of a staging file's form: \(name.debugDescription)")
        return name
    }
}
