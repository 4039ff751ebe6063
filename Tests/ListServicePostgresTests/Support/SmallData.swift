import Foundation

@testable import ListService

/// A data directory (`--data`) with the embedded data's first items: 300 orders, 100 tasks and
/// 100 earthquakes. For tests whose point does not depend on volume: a debug build reads the
/// embedded 17,000 items for seconds at every start, five times that under ThreadSanitizer.
enum SmallData {
    static let orderCount = 300
    static let anchor = ISO8601.parse("2026-11-20T00:00:00Z") ?? Date()

    /// The directory, written once per test process beside the test bundle (in the build
    /// folder, so no run leaves files elsewhere; the same bytes each time).
    static func directory() throws -> String { try written.get() }

    private static let written = Result { () throws -> String in
        let directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent("listservice-small-data").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try writeDataFiles(
            orders: DefaultOrders.make(count: orderCount, anchor: anchor), tasks: DefaultTasks.make(count: 100, anchor: anchor),
            quakes: DefaultQuakes.make(count: 100, anchor: anchor), to: directory)
        return directory
    }
}
