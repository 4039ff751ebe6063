import Foundation
import HTTPLite
import Testing

@testable import ListService
@testable import ListServiceHTTP

/// The web front end as files and as answers: the page at `/`, its assets under this build's
/// digest, the Content-Security-Policy and caching, and that the page holds nothing inline or
/// from another origin. Its behaviour in a browser is `scripts/browser-test.py`'s.
@Suite struct WebAppTests {
    let handler = ServiceRoutes.makeHandler(service: makeWriteTestService())
    let app = WebApp.compiled

    static let webFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../Sources/ListServiceHTTP/Web").standardized

    func text(_ response: Response) -> String {
        guard case .bytes(let bytes) = response.body else { return "" }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Every `/app/…` address the page names (its base for scripts included, without a file).
    func assetPaths(in page: String) -> [String] {
        page.split(separator: "\"").filter { $0.hasPrefix("/app/") }.map(String.init)
    }

    @Test func index_isThePage_withAStrictPolicy_revalidatedEachLoad() throws {
        let page = handler.send(.get, "/")
        #expect(page.status == .ok && page.headers["Content-Type"] == "text/html; charset=utf-8")
        let policy = try #require(page.headers["Content-Security-Policy"])
        for directive in ["default-src 'none'", "script-src 'self'", "style-src 'self'", "connect-src 'self'", "frame-ancestors 'none'"] {
            #expect(policy.contains(directive), "\(directive)")
        }
        #expect(!policy.contains("unsafe") && !policy.contains("http"), "nothing inline, no other origin")
        #expect(page.headers["Cache-Control"] == "no-cache" && page.headers["X-Frame-Options"] == "DENY")
        let etag = try #require(page.headers["ETag"])
        #expect(handler.send(.get, "/", headers: ["If-None-Match": etag]).status == .notModified)
        let head = handler.send(.head, "/")
        #expect(head.status == .ok && head.headers["ETag"] == etag)
    }

    @Test func index_hasNoInlineScriptOrStyle_andNamesOnlyThisBuildsAssets() throws {
        let page = text(handler.send(.get, "/"))
        #expect(!page.contains("{{"), "every placeholder replaced")
        let scripts = page.components(separatedBy: "<script").dropFirst()
        #expect(!scripts.isEmpty && scripts.allSatisfy { $0.hasPrefix(" type=\"module\" src=\"/app/") && $0.contains("></script>") })
        #expect(!page.contains("<style") && !page.contains(" style=") && !page.contains(" onclick="))
        let paths = assetPaths(in: page)
        #expect(paths.count >= 10)
        #expect(paths.contains("/app/\(app.version)"), "the base the scripts load the map from")
        for path in paths where path != "/app/\(app.version)" {
            #expect(path.hasPrefix("/app/\(app.version)/"))
            #expect(handler.send(.get, path).status == .ok, "\(path)")
        }
    }

    @Test func assets_areImmutableUnderTheirDigest_gzipped_andRevalidated() throws {
        let path = "/app/\(app.version)/live.js"
        let plain = handler.send(.get, path)
        #expect(plain.status == .ok && plain.headers["Content-Type"] == "text/javascript; charset=utf-8")
        #expect(plain.headers["Cache-Control"] == "public, max-age=31536000, immutable")
        #expect(plain.headers["Content-Security-Policy"] == WebApp.contentSecurityPolicy)
        let zipped = handler.send(.get, path, headers: ["Accept-Encoding": "gzip"])
        guard case .bytes(let plainBytes) = plain.body, case .bytes(let zippedBytes) = zipped.body else {
            Issue.record("no bodies")
            return
        }
        #expect(zipped.headers["Content-Encoding"] == "gzip" && gunzip(zippedBytes) == plainBytes)
        let etag = try #require(zipped.headers["ETag"])
        #expect(handler.send(.get, path, headers: ["If-None-Match": etag]).status == .notModified)
        for missing in ["/app/0000000000000000/live.js", "/app/\(app.version)/nope.js", "/app/\(app.version)/index.html"] {
            let answer = handler.send(.get, missing)
            #expect(answer.status == .notFound && answer.headers["Content-Type"] == "application/problem+json", "\(missing)")
        }
    }

    @Test func compiledFiles_areExactlyTheWebFolder() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: Self.webFolder.path)
        #expect(Set(names) == Set(WebApp.compiledFiles.map(\.name)), "Web/ and WebApp.compiledFiles must list the same files")
        for file in WebApp.compiledFiles {
            let onDisk = try [UInt8](Data(contentsOf: Self.webFolder.appendingPathComponent(file.name)))
            #expect(onDisk == file.bytes, "\(file.name) as compiled in")
        }
    }

    @Test func code_isSmall_andReachesNoOtherOrigin() {
        let code = WebApp.compiledFiles.filter { !$0.name.hasSuffix(".svg") }
        #expect(code.reduce(0) { $0 + $1.bytes.count } < 72_000, "HTML, CSS and JavaScript under 72 KB")
        for file in code {
            let source = String(decoding: file.bytes, as: UTF8.self)
            let addresses = source.components(separatedBy: "http").dropFirst().filter { !$0.hasPrefix("://www.w3.org/2000/svg") }
            #expect(addresses.isEmpty, "\(file.name) names another origin")
            for line in source.split(separator: "\n") where line.hasPrefix("import ") {
                #expect(line.contains("from './"), "\(file.name): \(line)")
            }
        }
    }

    @Test func version_changesWithAnyFile() {
        let page = ("index.html", Array(#"<script src="{{assets}}/a.js"></script>"#.utf8))
        let one = WebApp(files: [page, ("a.js", Array("let a = 1".utf8))])
        let two = WebApp(files: [page, ("a.js", Array("let a = 2".utf8))])
        #expect(one.version != two.version)
        #expect(one.asset(named: "a.js", version: one.version) != nil && one.asset(named: "a.js", version: two.version) == nil)
        guard case .bytes(let bytes) = one.index.response(to: Request(method: .get, path: "/")).body else {
            Issue.record("no page")
            return
        }
        #expect(String(decoding: bytes, as: UTF8.self) == #"<script src="/app/\#(one.version)/a.js"></script>"#)
    }

    /// Screens are registered in one list: the page gets a link and a preload for each, in order.
    @Test func everyScreen_getsItsLinkAndPreload_fromTheOneList() {
        let page = ("index.html", Array("{{screenPreloads}}|{{screenLinks}}".utf8))
        let app = WebApp(files: [page], screens: [("orders", "Orders"), ("users", "People")])
        guard case .bytes(let bytes) = app.index.response(to: Request(method: .get, path: "/")).body else {
            Issue.record("no page")
            return
        }
        let assets = "/app/\(app.version)"
        #expect(
            String(decoding: bytes, as: UTF8.self)
                == "<link rel=\"modulepreload\" href=\"\(assets)/orders.js\">\n<link rel=\"modulepreload\" href=\"\(assets)/users.js\">|"
                + "<a href=\"#/orders\" data-screen=\"orders\">Orders</a>\n    <a href=\"#/users\" data-screen=\"users\">People</a>")
        #expect(WebApp.screens.map(\.name) == ["orders", "tasks", "quakes", "users"])
    }
}
