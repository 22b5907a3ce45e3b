extension UInt8 {
    /// The byte with an ASCII capital letter made small, others as they are: the case-blind
    /// comparisons of names, schemes and header fields read on their UTF-8 bytes.
    var asciiLowercased: UInt8 {
        self >= UInt8(ascii: "A") && self <= UInt8(ascii: "Z") ? self | 0x20 : self
    }
}

extension StaticString {
    /// Whether `bytes` spell this string, written in lowercase ASCII, in any case: a header
    /// field's name, a token of a list, a URL's scheme, compared on their bytes without a
    /// lowercased copy.
    func matchesCaseBlind(_ bytes: some Collection<UInt8>) -> Bool {
        let own = UnsafeBufferPointer(start: utf8Start, count: utf8CodeUnitCount)
        return bytes.count == own.count && bytes.lazy.map(\.asciiLowercased).elementsEqual(own)
    }
}
