extension Unicode.Scalar {
    /// Whether this is a Unicode bidi formatting character (ALM, LRM, RLM, embeddings,
    /// overrides, isolates), which could make `exe.pdf` show as `fdp.exe` in a file name.
    var isBidiControl: Bool {
        switch value {
        case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }
}
