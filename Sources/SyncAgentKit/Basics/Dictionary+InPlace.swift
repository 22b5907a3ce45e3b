extension Dictionary {
    /// Runs `body` on the value for `key`, stored first as `defaultValue` when the key has
    /// none, and returns what `body` returns: one search of the table, where reading the value
    /// and then storing it hashes the key twice (a batch does so for each of 10,000 paths).
    mutating func inPlace<Result>(forKey key: Key, default defaultValue: @autoclosure () -> Value,
                                  _ body: (inout Value) -> Result) -> Result {
        body(&self[key, default: defaultValue()])
    }
}
