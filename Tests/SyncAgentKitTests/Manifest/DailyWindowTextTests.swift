import Testing
@testable import SyncAgentKit

struct DailyWindowTextTests {
    @Test(arguments: [
        ("01:00-06:00", 60, 360), ("22:00-06:00", 1_320, 360), ("1:30-6:45", 90, 405),
        ("00:00-23:59", 0, 1_439), ("22:00-24:00", 1_320, 0), ("08:00 - 17:30", 480, 1_050),
    ])
    func readsWindows(text: String, start: Int, end: Int) throws {
        #expect(try DailyWindowText.parse(text) == Manifest.DailyWindow(start: start, end: end))
    }

    @Test func knowsWhichWindowsCrossMidnight() throws {
        #expect(try DailyWindowText.parse("22:00-06:00").crossesMidnight)
        #expect(try !DailyWindowText.parse("01:00-06:00").crossesMidnight)
    }

    @Test(arguments: ["night", "01:00", "01:00-06:00-07:00", "0100-0600", "01:0-06:00", "001:00-06:00", "1am-6am", "01:00–06:00", "-01:00-06:00"])
    func refusesWhatIsNotAWindow(text: String) {
        #expect(throws: ValueProblem("expected a daily window of local time like \"01:00-06:00\" for `window`, found \(TextQuoting.quoted(text))")) {
            try DailyWindowText.parse(text)
        }
    }

    @Test(arguments: ["25:00-06:00", "01:60-06:00", "22:00-24:01", "24:00-06:00"])
    func refusesTimesThatDoNotExist(text: String) {
        #expect(throws: ValueProblem("`window` \(TextQuoting.quoted(text)) has a time of day that does not exist; hours run from 00 to 23 and minutes from 00 to 59")) {
            try DailyWindowText.parse(text)
        }
    }

    @Test(arguments: ["06:00-06:00", "00:00-24:00", "6:00-06:00"])
    func refusesAnEmptyWindow(text: String) {
        #expect(throws: ValueProblem("`window` \(TextQuoting.quoted(text)) starts and ends at the same time; to allow any time of day, leave `window` out")) {
            try DailyWindowText.parse(text)
        }
    }
}
