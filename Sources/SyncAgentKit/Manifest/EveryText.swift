/// The `every` key: how long after its last check a file is checked again, such as `6h`.
enum EveryText {
    /// Reads `text` as a duration above zero.
    static func parse(_ text: String) throws(ValueProblem) -> Duration {
        guard let every = DurationText.parse(text.utf8) else {
            throw ValueProblem("expected a duration like \"6h\" or \"1d\" for `every` (units \(DurationText.units)), found \(TextQuoting.quoted(text))")
        }
        guard every > .zero else {
            throw ValueProblem("`every` must be above zero, found \(TextQuoting.quoted(text))")
        }
        return every
    }
}
