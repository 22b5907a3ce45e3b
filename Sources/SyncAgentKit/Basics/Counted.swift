/// A count with its noun, singular for exactly one: "1 file", "0 files", "3 new failures".
/// One place for it, so no message says "1 files".
public func counted(_ count: Int, _ singular: String, _ plural: String? = nil) -> String {
    "\(count) " + (count == 1 ? singular : plural ?? singular + "s")
}
