import HTTPLite
import ListService

/// The web front end: the files of `Web/`, compiled into the binary. `index.html` is served
/// at `/`; every other file under `/app/<version>/`, where `version` is a digest of all the
/// files. An asset's address thus changes whenever any file does, so assets are cached for a
/// year as immutable, while `/` is revalidated on each load (by ETag) and so always names the
/// current assets: a new build is never run with an old build's scripts.
struct WebApp: Sendable {
    /// The digest of every file, the path segment after `/app/`.
    let version: String
    /// The page, its `{{assets}}` placeholders replaced by `/app/<version>`, and its
    /// `{{screenLinks}}` and `{{screenPreloads}}` by a link and a preload per screen.
    let index: StaticResource
    private let assets: [String: StaticResource]

    /// Scripts, styles, images and connections from this origin only; no inline script or
    /// style, no plugins, no framing, no `<base>`, forms post nowhere.
    static let contentSecurityPolicy =
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; "
        + "manifest-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
    static let assetCacheControl = "public, max-age=31536000, immutable"
    /// The page itself: kept, but checked with the server on every load.
    static let indexCacheControl = "no-cache"

    /// `screens`: each screen's name (its script is `<name>.js`) and its link's label, in order.
    init(files: [(name: String, bytes: [UInt8])], screens: [(name: String, label: String)] = []) {
        version = ETag.hexDigest(files.flatMap { Array($0.name.utf8) + $0.bytes })
        let headers: HTTPHeaders = [
            "Content-Security-Policy": Self.contentSecurityPolicy, "Referrer-Policy": "no-referrer", "X-Frame-Options": "DENY",
        ]
        var assets: [String: StaticResource] = [:]
        var index: [UInt8] = []
        for file in files {
            if file.name == "index.html" {
                let links = screens.map { "<a href=\"#/\($0.name)\" data-screen=\"\($0.name)\">\($0.label)</a>" }
                let preloads = screens.map { "<link rel=\"modulepreload\" href=\"{{assets}}/\($0.name).js\">" }
                let page = String(decoding: file.bytes, as: UTF8.self).replacing("{{screenLinks}}", with: links.joined(separator: "\n    "))
                    .replacing("{{screenPreloads}}", with: preloads.joined(separator: "\n"))
                index = Array(page.replacing("{{assets}}", with: "/app/\(version)").utf8)
            } else {
                assets[file.name] = StaticResource(
                    contentType: Self.contentType(of: file.name), bytes: file.bytes, cacheControl: Self.assetCacheControl, headers: headers)
            }
        }
        self.assets = assets
        self.index = StaticResource(
            contentType: "text/html; charset=utf-8", bytes: index, cacheControl: Self.indexCacheControl, headers: headers)
    }

    /// The asset `name` of this build; nil for another build's version or an unknown name.
    func asset(named name: String, version: String) -> StaticResource? {
        version == self.version ? assets[name] : nil
    }

    static func contentType(of name: String) -> String {
        switch name.split(separator: ".").last {
        case "js": "text/javascript; charset=utf-8"
        case "css": "text/css; charset=utf-8"
        case "svg": "image/svg+xml"
        default: "application/octet-stream"
        }
    }
}
