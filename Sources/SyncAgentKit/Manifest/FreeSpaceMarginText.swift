/// The `min_free` key: a size such as `2GB` (see ``ByteSizeText``) or a share of the disk
/// such as `10%`.
enum FreeSpaceMarginText {
    /// The shares accepted: a disk kept entirely free could hold nothing.
    static let percentRange = 1...99

    static func parse(_ text: String) throws(ValueProblem) -> Manifest.FreeSpaceMargin {
        let trimmed = text.trimmingSpaces()
        if trimmed.hasSuffix("%") {
            let digits = trimmed.dropLast().trimmingSpaces()
            guard digits.count <= 3, let percent = Int(digits), digits.allSatisfy(\.isASCII), percentRange.contains(percent) else {
                throw ValueProblem("`min_free` as a share of the disk must be a whole percentage from 1% to 99%, found \(TextQuoting.quoted(text))")
            }
            return .percent(percent)
        }
        guard let bytes = ByteSizeText.parse(text) else {
            throw ValueProblem("expected a size like \"2GB\" or a share of the disk like \"10%\" for `min_free` (units \(ByteSizeText.units)), found \(TextQuoting.quoted(text))")
        }
        return .bytes(bytes)
    }
}
