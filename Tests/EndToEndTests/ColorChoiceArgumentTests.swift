import SyncAgentKit
import Testing
@testable import syncagent

/// `--color`'s values as the help and the completion scripts show them: the ones
/// swift-argument-parser's defaults give for a string enum, which ColorOption spells out.
struct ColorChoiceArgumentTests {
    @Test func theValuesAreTheCasesAsTyped() {
        #expect(ColorChoice.allValueStrings == ["auto", "always", "never"])
        #expect(ColorChoice.allValueDescriptions.isEmpty)
        #expect(ColorChoice.allCases.map(\.defaultValueDescription) == ["auto", "always", "never"])
    }
}
