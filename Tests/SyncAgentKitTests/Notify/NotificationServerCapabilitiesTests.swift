import Testing
@testable import SyncAgentKit

/// A notification fitted to what the server says it can do (`GetCapabilities`).
struct NotificationServerCapabilitiesTests {
    static let notification = DesktopNotification(
        summary: "R&D Report <draft> & Q&A",
        body: "R&D Report <draft> & Q&A: the server answered 404 Not Found",
        actions: [.retry(["/a"])],
        soundName: "dialog-warning"
    )

    @Test func aServerThatReadsMarkupGetsTheBodyEscapedAndTheSummaryAsItIs() {
        let fitted = NotificationServerCapabilities(["actions", "body", "body-markup"]).fitted(Self.notification, offersActions: true)

        #expect(fitted.body == "R&amp;D Report &lt;draft&gt; &amp; Q&amp;A: the server answered 404 Not Found")
        #expect(fitted.summary == "R&D Report <draft> & Q&A", "the summary is plain text for every server")
    }

    @Test func aServerWithoutMarkupGetsThePlainBody() {
        let fitted = NotificationServerCapabilities(["actions", "body"]).fitted(Self.notification, offersActions: true)

        #expect(fitted.body == Self.notification.body)
    }

    @Test func actionsOnlyWhereTheServerShowsThemAndSomeoneServesThem() {
        #expect(NotificationServerCapabilities(["actions"]).fitted(Self.notification, offersActions: true).actions == [.retry(["/a"])])
        #expect(NotificationServerCapabilities(["body"]).fitted(Self.notification, offersActions: true).actions.isEmpty)
        #expect(NotificationServerCapabilities(["actions"]).fitted(Self.notification, offersActions: false).actions.isEmpty)
    }

    @Test func aSoundOnlyWhereTheServerPlaysOne() {
        #expect(NotificationServerCapabilities(["sound"]).fitted(Self.notification, offersActions: true).soundName == "dialog-warning")
        #expect(NotificationServerCapabilities(["actions", "body-markup"]).fitted(Self.notification, offersActions: true).soundName == nil)
    }

    @Test func markupEscapingLeavesQuotesAndOtherTextAlone() {
        #expect(NotificationMarkup.escaped("\"It's\" <b>é</b> &amp;") == "\"It's\" &lt;b&gt;é&lt;/b&gt; &amp;amp;")
    }
}
