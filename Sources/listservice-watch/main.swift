import Foundation
import ListServiceClient

// `listservice-watch orders --filter pending --search john`: a live list on a terminal.

let options: WatchOptions
do {
    options = try WatchOptions(Array(CommandLine.arguments.dropFirst()))
} catch {
    FileHandle.standardError.write(Data((error.message + "\n").utf8))
    exit(error.message == WatchOptions.usage ? 0 : 2)
}

let token = options.token
let client = ListServiceClient(
    baseURL: options.url ?? URL(fileURLWithPath: "/"), display: options.display,
    tokenProvider: token.map { token in { @Sendable in token } })

/// Watches `query` and never returns but by exiting.
@MainActor
func watch<Query: ListQuery>(_ query: Query) async -> Never where Query.Row: RowColumns {
    let title = ([options.collection] + options.values.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }).joined(separator: " ")
    let watcher = Watcher<Query.Row>(list: client.live(query), title: title, isJSON: options.isJSON, limit: options.limit)
    exit(await watcher.run())
}

do {
    let display = options.display
    let limit = options.limit
    switch options.collection {
    case "orders":
        await watch(
            OrderQuery(
                filter: try options.choice("filter") ?? .all, search: options.search, sort: try options.choice("sort"),
                order: try options.order(), group: try options.choice("group"), limit: limit, display: display))
    case "tasks":
        await watch(
            TaskQuery(
                view: try options.choice("view") ?? .active, search: options.search, sort: try options.choice("sort"),
                order: try options.order(), group: try options.choice("group"), limit: limit, display: display))
    case "users":
        await watch(
            UserQuery(
                search: options.search, sort: try options.choice("sort"), order: try options.order(), group: try options.choice("group"),
                limit: limit, display: display))
    case "quakes":
        await watch(
            QuakeQuery(
                date: options.values["date"], search: options.search, sort: try options.choice("sort"), order: try options.order(),
                group: try options.choice("group"), limit: limit, display: display))
    case "map":
        await watch(QuakeMapQuery(date: options.values["date"], search: options.search, display: display))
    default:
        throw UsageError(message: "unknown collection \(options.collection): orders, tasks, users, quakes or map")
    }
} catch let error as UsageError {
    FileHandle.standardError.write(Data(("listservice-watch: " + error.message + "\n").utf8))
    exit(2)
}
