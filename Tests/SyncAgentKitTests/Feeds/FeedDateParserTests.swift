import Testing
@testable import SyncAgentKit

/// RFC 822 dates with real feeds' mistakes, and RFC 3339.
struct FeedDateParserTests {
    @Test(arguments: [
        ("Tue, 24 Nov 2026 21:06:00 GMT", "2026-11-24T21:06:00Z"),
        ("Tue, 24 Nov 2026 21:06:00 +0000", "2026-11-24T21:06:00Z"),
        ("24 Nov 2026 21:06:00 GMT", "2026-11-24T21:06:00Z"),
        ("Tue, 24 Nov 26 21:06:00 GMT", "2026-11-24T21:06:00Z"),
        ("Wed, 24 Nov 99 21:06:00 GMT", "1999-11-24T21:06:00Z"),
        ("Tue, 24 Nov 2026 21:06 GMT", "2026-11-24T21:06:00Z"),
        ("Tue, 24 Nov 2026 16:06:00 EST", "2026-11-24T21:06:00Z"),
        ("Tue, 24 Nov 2026 14:06:00 PDT", "2026-11-24T21:06:00Z"),
        ("Tue, 24 Nov 2026 23:06:00 GMT+2", "2026-11-24T21:06:00Z"),
        ("Tue, 24 Nov 2026 23:06:00 GMT+02:00", "2026-11-24T21:06:00Z"),
        ("Tue, 24 Nov 2026 16:06:00 UTC-05:00", "2026-11-24T21:06:00Z"),
        ("Tue, 24 Nov 2026 22:06:00 +01:00", "2026-11-24T21:06:00Z"),
        ("Tue, 24 Nov 2026 22:06:00 CET", "2026-11-24T21:06:00Z"),
        ("  Tue,  24   Nov  2026   21:06:00  GMT ", "2026-11-24T21:06:00Z"),
        ("Tuesday, 24 November 2026 21:06:00 GMT", "2026-11-24T21:06:00Z"),
        ("Tue, 24 Sept 2026 21:06:00 GMT", "2026-09-24T21:06:00Z"),
        ("Tue, Nov 24 2026 21:06:00 GMT", "2026-11-24T21:06:00Z"),
        ("Mon, 24 Nov 2026 21:06:00 GMT", "2026-11-24T21:06:00Z"),
        ("24 Nov 2026", "2026-11-24T00:00:00Z"),
        ("Tue, 24 Nov 2026 21:06:00", "2026-11-24T21:06:00Z"),
        ("Tue, 24 Nov 2026 21:06:00 Z", "2026-11-24T21:06:00Z"),
        ("Tue, 24 nov 2026 21:06:00 gmt", "2026-11-24T21:06:00Z"),
        ("Tue, 24 Nov 2026 21:06:00 + 0000", "2026-11-24T21:06:00Z"),
        ("Tue, 24 Nov 2026 8:06:00 -1300", "2026-11-24T21:06:00Z"),
        ("Sat, 29 Feb 2020 12:00:00 GMT", "2020-02-29T12:00:00Z"),
        ("Thu, 01 Jan 1970 00:00:00 GMT", "1970-01-01T00:00:00Z"),
        ("Wed, 31 Dec 1969 23:59:59 GMT", "1969-12-31T23:59:59Z"),
        ("2026-11-24T21:06:00Z", "2026-11-24T21:06:00Z"),
        ("2026-11-24T22:06:00+01:00", "2026-11-24T21:06:00Z"),
        ("2026-11-24T22:06:00+0100", "2026-11-24T21:06:00Z"),
        ("2026-11-24T21:06:00.123456Z", "2026-11-24T21:06:00Z"),
        ("2026-11-24 21:06:00Z", "2026-11-24T21:06:00Z"),
        ("2026-11-24T21:06Z", "2026-11-24T21:06:00Z"),
        ("2026-11-24T21:06:00", "2026-11-24T21:06:00Z"),
        ("2026-11-24", "2026-11-24T00:00:00Z"),
    ])
    func reads(text: String, expected: String) {
        #expect(FeedDateParser.parse(text)?.description == expected)
    }

    @Test(arguments: [
        "", "soon", "Tue, 32 Nov 2026 21:06:00 GMT", "Tue, 29 Feb 2026 12:00:00 GMT", "Tue, 24 Foo 2026 21:06:00 GMT",
        "Tue, 24 Nov 2026 25:06:00 GMT", "Tue, 24 Nov 2026 21:61:00 GMT", "Tue, 24 Nov 2026 21:06:00 XYZ",
        "2026-13-01T00:00:00Z", "2026-11-24T21:06:00+25:00", "2026-11-24T21", "2026-11-24T21:06:00Zjunk",
        "Tue, 24 Nov 2026 2026 21:06:00 GMT", "24 Nov", String(repeating: "1", count: 200),
    ])
    func refuses(text: String) {
        #expect(FeedDateParser.parse(text) == nil)
    }

    @Test func keepsThePublishersOffsetForTheDay() throws {
        let date = try #require(FeedDateParser.parse("Mon, 23 Nov 2026 23:30:00 PST"))
        #expect(date.localDay == "2026-11-23")
        #expect(date.utcDay == "2026-11-24")
        #expect(date.utcOffset == -8 * 3600)
    }
}
