import FoundationEssentials

extension Date {
    /// This moment moved on by `duration` (back, when it is negative), to the attosecond as far
    /// as `Double` can keep it.
    func adding(_ duration: Duration) -> Date {
        let (seconds, attoseconds) = duration.components
        return addingTimeInterval(Double(seconds) + Double(attoseconds) / 1e18)
    }
}
