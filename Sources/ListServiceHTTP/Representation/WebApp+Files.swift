extension WebApp {
    /// This build's front end, made once (its assets compressed) the first time it is served.
    static let compiled = WebApp(files: compiledFiles)

    /// The files of `Web/`, compiled in by SwiftPM (`.embedInCode`). A test checks that this
    /// list names every file in the folder.
    static let compiledFiles: [(name: String, bytes: [UInt8])] = [
        ("index.html", PackageResources.index_html),
        ("app.css", PackageResources.app_css),
        ("app.js", PackageResources.app_js),
        ("api.js", PackageResources.api_js),
        ("live.js", PackageResources.live_js),
        ("view.js", PackageResources.view_js),
        ("screen.js", PackageResources.screen_js),
        ("orders.js", PackageResources.orders_js),
        ("tasks.js", PackageResources.tasks_js),
        ("quakes.js", PackageResources.quakes_js),
        ("users.js", PackageResources.users_js),
        ("icon.svg", PackageResources.icon_svg),
        ("world.svg", PackageResources.world_svg),
    ]
}
