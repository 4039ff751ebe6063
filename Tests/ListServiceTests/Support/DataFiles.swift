import Foundation

@testable import ListService

/// Writes a complete data directory (`--data`): the orders, tasks and earthquakes given, each
/// collection's file in the shared format (an empty list where none are given).
func writeDataFiles(orders: [Order] = [], tasks: [TaskItem] = [], quakes: [Earthquake] = [], to directory: String) throws {
    let files = [
        (Orders.fileName, Orders.encodeDataFile(orders)), (Tasks.fileName, Tasks.encodeDataFile(tasks)),
        (Quakes.fileName, Quakes.encodeDataFile(quakes)),
    ]
    for (name, bytes) in files { try Data(bytes).write(to: URL(fileURLWithPath: directory + "/" + name)) }
}
