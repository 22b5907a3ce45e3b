import Testing
@testable import SyncAgentKit

/// The file name a `Content-Disposition` header offers (RFC 6266, RFC 8187 `filename*`).
struct ContentDispositionTests {
    @Test(arguments: [
        ("attachment; filename=\"report.pdf\"", "report.pdf"),
        ("attachment; filename=report.pdf", "report.pdf"),
        ("attachment;filename = \"Annual Report.pdf\" ; size=3", "Annual Report.pdf"),
        ("attachment; filename=\"a \\\"quoted\\\" name.pdf\"", "a \"quoted\" name.pdf"),
        ("attachment; filename*=UTF-8''r%C3%A9sum%C3%A9.pdf", "résumé.pdf"),
        ("attachment; filename*=utf-8'en'%E2%82%AC%20rates.pdf", "€ rates.pdf"),
        ("attachment; filename*=ISO-8859-1''caf%E9.pdf", "café.pdf"),
        // filename* wins, whichever comes first (RFC 6266 §4.3).
        ("attachment; filename=\"fallback.pdf\"; filename*=UTF-8''real.pdf", "real.pdf"),
        ("attachment; filename*=UTF-8''real.pdf; filename=\"fallback.pdf\"", "real.pdf"),
        // An unknown charset or bad UTF-8 leaves filename to decide.
        ("attachment; filename*=KOI8-R''x.pdf; filename=\"plain.pdf\"", "plain.pdf"),
        ("attachment; filename*=UTF-8''%FF.pdf; filename=plain.pdf", "plain.pdf"),
        ("inline; filename=\"page.pdf\"", "page.pdf"),
    ])
    func findsTheName(header: String, name: String) {
        #expect(ContentDisposition.fileName(in: header) == name)
    }

    @Test(arguments: ["attachment", "inline", "", "attachment; filename=", "attachment; filename=\"\"", "attachment; size=3"])
    func findsNoNameWhereThereIsNone(header: String) {
        #expect(ContentDisposition.fileName(in: header) == nil)
    }
}
