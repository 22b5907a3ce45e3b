import Testing
@testable import SyncAgentKit

struct HTTPDateTests {
    @Test func parsesTheThreeFormatsHTTPAllows() {
        #expect(HTTPDate.parse("Sun, 06 Nov 1994 08:49:37 GMT") == 784_111_777)
        #expect(HTTPDate.parse("Sunday, 06-Nov-94 08:49:37 GMT") == 784_111_777)
        #expect(HTTPDate.parse("Sun Nov  6 08:49:37 1994") == 784_111_777)
        #expect(HTTPDate.parse("not a date") == nil)
    }

    @Test func readsTwoDigitYearsLeapDaysAndRefusesWhatIsNoDate() {
        #expect(HTTPDate.parse("Thursday, 29-Feb-24 23:59:60 GMT") == 1_709_251_200)
        #expect(HTTPDate.parse("Tue, 24 Nov 2026 20:19:03 GMT") == 1_795_551_543)
        #expect(HTTPDate.parse("Sun, 06 Nov 1994 25:49:37 GMT") == nil)
        #expect(HTTPDate.parse("Sun, 06 Nov 1994 08:49 GMT") == nil)
        #expect(HTTPDate.parse("Sun, 06 Foo 1994 08:49:37 GMT") == nil)
        #expect(HTTPDate.parse("") == nil)
        #expect(HTTPDate.parse("Sun, 06 Nov 1994 08:49:37 1995 GMT") == nil)
        #expect(HTTPDate.parse("Sun, 06 Nov 1994 08:49:37 08:49:37 GMT") == nil)
        #expect(HTTPDate.parse("Sun, 06 Nov Nov 1994 08:49:37 GMT") == nil)
        #expect(HTTPDate.parse("Sun, ０６ Nov 1994 08:49:37 GMT") == nil)
        #expect(HTTPDate.parse("Sun, 06 Nov 99999999999999999999 08:49:37 GMT") == nil)
    }

    @Test func readsMonthsInAnyCaseAndTabsAsSpaces() {
        #expect(HTTPDate.parse("sun,\t06 NOV 1994 08:49:37 gmt") == nil)  // a zone in lower case is no zone
        #expect(HTTPDate.parse("Sun,\t06 NOV 1994 08:49:37 GMT") == 784_111_777)
        #expect(HTTPDate.parse("Sun, 06 nov 1994 08:49:37 UTC") == 784_111_777)
    }

    @Test func formatsTheIMFFixdateAndRoundTrips() {
        #expect(HTTPDate.format(784_111_777) == "Sun, 06 Nov 1994 08:49:37 GMT")
        #expect(HTTPDate.parse(HTTPDate.format(1_800_000_000)) == 1_800_000_000)
    }
}
