/// The web app's files as compiled into the binary (Package.swift embeds each file of Sources/CaddieAPI/Web).
/// A file added to that folder is listed in Package.swift and here; WebAppTests checks that every file is served.
enum WebFiles {
    static let all: [(name: String, bytes: [UInt8])] = [
        ("api.js", PackageResources.api_js),
        ("app.css", PackageResources.app_css),
        ("app.js", PackageResources.app_js),
        ("blake2b.js", PackageResources.blake2b_js),
        ("board.css", PackageResources.board_css),
        ("board.html", PackageResources.board_html),
        ("board.js", PackageResources.board_js),
        ("card-actions.js", PackageResources.card_actions_js),
        ("card-screen.js", PackageResources.card_screen_js),
        ("device.js", PackageResources.device_js),
        ("devices-screen.js", PackageResources.devices_screen_js),
        ("guide.js", PackageResources.guide_js),
        ("guide-screen.js", PackageResources.guide_screen_js),
        ("icon.svg", PackageResources.icon_svg),
        ("index.html", PackageResources.index_html),
        ("live.js", PackageResources.live_js),
        ("local.js", PackageResources.local_js),
        ("manifest.webmanifest", PackageResources.manifest_webmanifest),
        ("new-game-screen.js", PackageResources.new_game_screen_js),
        ("report-screens.js", PackageResources.report_screens_js),
        ("send.js", PackageResources.send_js),
        ("ops.js", PackageResources.ops_js),
        ("outbox.js", PackageResources.outbox_js),
        ("render.js", PackageResources.render_js),
        ("signin.html", PackageResources.signin_html),
        ("store.js", PackageResources.store_js),
        ("sw.js", PackageResources.sw_js),
    ]
}
