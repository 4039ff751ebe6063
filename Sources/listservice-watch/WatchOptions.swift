import Foundation
import ListServiceClient

/// `listservice-watch`'s command line: a collection, its list's parameters, and where and how.
struct WatchOptions {
    static let usage = """
        Usage: listservice-watch <orders|tasks|users|quakes|map> [options]

        Prints a list and redraws it in place as it changes (changed rows marked).

        Options:
          --url URL          the service (default http://127.0.0.1:8080)
          --token TOKEN      a bearer token (or env LISTSERVICE_TOKEN)
          --json             print each applied change as one JSON line instead
          --filter NAME      orders: all, pending, completed, cancelled, highValue, currentMonth
          --view NAME        tasks: active, archived, all
          --search TEXT      the list's search (q)
          --sort NAME        the list's sort
          --order asc|desc
          --group NAME       sections
          --date YYYY-MM-DD  quakes: the day
          --limit N          rows (default 20)
          --locale TAG       e.g. de-DE (default the system's)
          --tz ZONE          e.g. Europe/Berlin (default the system's)
        """

    var collection = ""
    var url = URL(string: "http://127.0.0.1:8080")
    var token = ProcessInfo.processInfo.environment["LISTSERVICE_TOKEN"]
    var isJSON = false
    var values: [String: String] = [:]
    var limit = 20

    /// Reads `arguments` (without the program's name); a message on a mistake.
    init(_ arguments: [String]) throws(UsageError) {
        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            switch argument {
            case "-h", "--help": throw UsageError(message: Self.usage)
            case "--json": isJSON = true
            case "--url", "--token", "--filter", "--view", "--search", "-q", "--sort", "--order", "--group", "--date", "--limit",
                "--locale", "--tz":
                guard let value = remaining.popFirst() else { throw UsageError(message: "\(argument) needs a value") }
                switch argument {
                case "--url":
                    guard let url = URL(string: value), url.scheme != nil else { throw UsageError(message: "--url: not a URL: \(value)") }
                    self.url = url
                case "--token": token = value
                case "--limit":
                    guard let limit = Int(value), limit > 0 else { throw UsageError(message: "--limit: not a positive number: \(value)") }
                    self.limit = limit
                case "-q": values["search"] = value
                default: values[String(argument.dropFirst(2))] = value
                }
            default:
                guard collection.isEmpty, !argument.hasPrefix("-") else {
                    throw UsageError(message: "unknown option \(argument)\n\n\(Self.usage)")
                }
                collection = argument
            }
        }
        guard !collection.isEmpty else { throw UsageError(message: Self.usage) }
    }

    var display: Display {
        let device = Display.device
        return Display(locale: values["locale"] ?? device.locale, timeZone: values["tz"] ?? device.timeZone)
    }

    var search: String { values["search"] ?? "" }

    func order() throws(UsageError) -> SortDirection? { try choice("order") }

    /// The value of `name` as one of `Choice`'s cases; nil when not given.
    func choice<Choice: RawRepresentable>(_ name: String, as type: Choice.Type = Choice.self) throws(UsageError) -> Choice?
    where Choice.RawValue == String {
        guard let value = values[name] else { return nil }
        guard let choice = Choice(rawValue: value) else {
            throw UsageError(message: "--\(name): \(value) is not one of the allowed values")
        }
        return choice
    }
}

struct UsageError: Error {
    var message: String
}
