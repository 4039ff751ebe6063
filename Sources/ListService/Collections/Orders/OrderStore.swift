import Foundation
import Synchronization

/// Holds the current orders snapshot; readers take it without waiting on writers.
public final class OrderStore: Sendable {
    private let current: Mutex<OrderSnapshot>

    public init(orders: [Order]) {
        current = Mutex(OrderSnapshot(orders: orders, version: 1))
    }

    public var snapshot: OrderSnapshot { current.withLock { $0 } }

    /// Installs a new data set as the next version; every cached list of the old one goes stale.
    public func replaceAll(_ orders: [Order]) {
        let next = OrderSnapshot(orders: orders, version: snapshot.version + 1)
        current.withLock { $0 = next }
    }

    /// Loads `orders.json` in the shared data format; the error names the file and the field.
    public static func load(file: URL) throws(DataLoadError) -> OrderStore {
        let bytes: [UInt8]
        do {
            bytes = [UInt8](try Data(contentsOf: file))
        } catch {
            throw DataLoadError(file: file.lastPathComponent, reason: "cannot be read (\(error.localizedDescription))")
        }
        return OrderStore(orders: try decodeOrders(bytes, file: file.lastPathComponent))
    }

    static func decodeOrders(_ bytes: [UInt8], file: String) throws(DataLoadError) -> [Order] {
        let document: JSONValue
        do {
            document = try JSONParser.parse(bytes)
        } catch {
            throw DataLoadError(file: file, reason: error.description)
        }
        guard case .array(let elements) = document else {
            throw DataLoadError(file: file, reason: "expected a JSON array of orders, found \(document.kindDescription)")
        }
        var orders: [Order] = []
        orders.reserveCapacity(elements.count)
        var seen = Set<String>()
        do throws(JSONFieldError) {
            for (index, element) in elements.enumerated() {
                let order = try Order(json: element, path: "[\(index)]")
                guard seen.insert(order.id).inserted else {
                    throw JSONFieldError(path: "[\(index)].id", reason: "'\(order.id)' is used by an earlier order")
                }
                orders.append(order)
            }
        } catch {
            throw DataLoadError(file: file, reason: error.description)
        }
        return orders
    }
}

/// A data file that cannot be served, said in one line: `orders.json: [17].total: is missing`.
public struct DataLoadError: Error, CustomStringConvertible, Sendable {
    public let file: String
    public let reason: String

    public init(file: String, reason: String) {
        self.file = file
        self.reason = reason
    }

    public var description: String { "\(file): \(reason)" }
}
