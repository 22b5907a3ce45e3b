extension Manifest.EnclosureKind {
    private static let audioExtensions: Set<String> = ["mp3", "m4a", "m4b", "aac", "ogg", "oga", "opus", "flac", "wav", "weba", "mka"]
    private static let videoExtensions: Set<String> = ["mp4", "m4v", "mov", "mkv", "webm", "avi", "mpg", "mpeg", "ogv"]
    private static let imageExtensions: Set<String> = ["jpg", "jpeg", "png", "gif", "webp", "avif", "heic"]

    /// What `enclosure` is: by its stated media type, else by its URL's file extension
    /// (feeds often leave the type out, or write a wrong `application/octet-stream`).
    public init(of enclosure: FeedEnclosure) {
        switch enclosure.mediaType?.split(separator: "/").first {
        case "audio": self = .audio
        case "video": self = .video
        case "image": self = .image
        default:
            let stated = enclosure.mediaType.flatMap { $0 == "application/octet-stream" ? nil : $0 }
            let fileExtension = FileExtension.of(url: enclosure.url, mediaType: stated) ?? ""
            if Self.audioExtensions.contains(fileExtension) || stated == "application/ogg" {
                self = .audio
            } else if Self.videoExtensions.contains(fileExtension) {
                self = .video
            } else if Self.imageExtensions.contains(fileExtension) {
                self = .image
            } else {
                self = .other
            }
        }
    }
}
