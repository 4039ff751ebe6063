extension WebApp {
    /// This build's front end, made once (its assets compressed) the first time it is served.
    static let compiled = WebApp(files: compiledFiles, screens: screens.map { ($0.name, $0.label) })

    /// The front end's screens, in the order its navigation shows them: one per collection,
    /// each its script in `Web/` (`orders.js`, exporting the screen as `orders`). This list is
    /// the one place a screen is registered: the page's links and preloads, and the scripts
    /// the page imports, are made from it.
    static let screens: [(name: String, label: String, script: [UInt8])] = [
        ("orders", "Orders", PackageResources.orders_js),
        ("tasks", "Tasks", PackageResources.tasks_js),
        ("quakes", "Earthquakes", PackageResources.quakes_js),
        ("users", "People", PackageResources.users_js),
    ]

    /// The files of `Web/`, compiled in by SwiftPM (`.embedInCode`). A test checks that this
    /// list names every file in the folder.
    static let compiledFiles: [(name: String, bytes: [UInt8])] =
        [
            ("index.html", PackageResources.index_html),
            ("app.css", PackageResources.app_css),
            ("app.js", PackageResources.app_js),
            ("api.js", PackageResources.api_js),
            ("live.js", PackageResources.live_js),
            ("sections.js", PackageResources.sections_js),
            ("exports.js", PackageResources.exports_js),
            ("selection.js", PackageResources.selection_js),
            ("view.js", PackageResources.view_js),
            ("screen.js", PackageResources.screen_js),
            ("signin.js", PackageResources.signin_js),
            ("icon.svg", PackageResources.icon_svg),
            ("world.svg", PackageResources.world_svg),
        ] + screens.map { ("\($0.name).js", $0.script) }
}
