extension UInt8 {
    /// The byte with an ASCII capital letter made small, others as they are: the case-blind
    /// comparisons of names, schemes and header fields read on their UTF-8 bytes.
    var asciiLowercased: UInt8 {
        self >= UInt8(ascii: "A") && self <= UInt8(ascii: "Z") ? self | 0x20 : self
    }
}
