/// The extension an episode's file gets: from the enclosure URL's path, else from its media
/// type; never from the title (a title "…part 2.exe" must not name an executable).
enum FileExtension {
    /// Extensions of server scripts, which say how the file was served, not what it is.
    private static let scripts: Set<String> = ["php", "asp", "aspx", "cgi", "jsp", "pl", "py", "do", "action", "html", "htm"]

    /// Media types feeds use, with the usual extension.
    private static let byType: [String: String] = [
        "audio/mpeg": "mp3", "audio/mp3": "mp3", "audio/mpeg3": "mp3", "audio/x-mpeg": "mp3",
        "audio/mp4": "m4a", "audio/x-m4a": "m4a", "audio/m4a": "m4a", "audio/aac": "aac", "audio/aacp": "aac",
        "audio/ogg": "ogg", "audio/vorbis": "ogg", "audio/opus": "opus", "audio/flac": "flac", "audio/x-flac": "flac",
        "audio/wav": "wav", "audio/x-wav": "wav", "audio/webm": "weba",
        "video/mp4": "mp4", "video/x-m4v": "m4v", "video/quicktime": "mov", "video/webm": "webm",
        "video/mpeg": "mpg", "video/x-matroska": "mkv", "video/ogg": "ogv",
        "application/pdf": "pdf", "application/epub+zip": "epub",
        "image/jpeg": "jpg", "image/png": "png", "image/gif": "gif", "image/webp": "webp",
    ]

    /// The extension (lowercase, without the dot) for an enclosure, or nil when neither its
    /// URL nor its media type says.
    static func of(url: String, mediaType: String?) -> String? {
        let name = FeedURL.lastPathComponent(of: url)
        if let dot = name.lastIndex(of: "."), dot > name.startIndex {
            let candidate = name[name.index(after: dot)...].lowercased()
            if (1...5).contains(candidate.count), candidate.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }),
               candidate.contains(where: \.isLetter), !scripts.contains(candidate) {
                return candidate
            }
        }
        return mediaType.flatMap { byType[$0] }
    }
}
