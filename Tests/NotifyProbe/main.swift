// Posts one notification through LibnotifyNotifier, prints how it went, and exits.
//
// The notification tests run this once per case, each against a private bus of its own:
// GDBus reads the session bus address once per process and keeps that connection, so cases
// inside one test process could not each have their own bus (or none at all).
//
// Usage: NotifyProbe TIMEOUT_MS SUMMARY BODY CATEGORY|- low|normal|critical ICON|-
// Prints one line, "posted" or "failed CODE: MESSAGE", and exits 0 either way.
import Foundation
import SyncAgentKit

let values = Array(CommandLine.arguments.dropFirst())
guard values.count == 6,
      let timeoutMilliseconds = Int(values[0]),
      let urgency = DesktopNotification.Urgency.allCases.first(where: { "\($0)" == values[4] })
else {
    FileHandle.standardError.write(Data("usage: NotifyProbe TIMEOUT_MS SUMMARY BODY CATEGORY|- low|normal|critical ICON|-\n".utf8))
    exit(2)
}
let notification = DesktopNotification(
    summary: values[1],
    body: values[2],
    category: values[3] == "-" ? nil : DesktopNotification.Category(rawValue: values[3]),
    urgency: urgency,
    iconName: values[5] == "-" ? nil : values[5]
)
do throws(NotificationError) {
    try LibnotifyNotifier(timeout: .milliseconds(timeoutMilliseconds)).post(notification)
    print("posted")
} catch {
    print("failed \(error.code): \(error.message)")
}
// A show that timed out may still block a thread; exit without waiting for it.
exit(0)
