import CSystem
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
        let data: Data
        do {
            data = try Data(contentsOf: file, options: .alwaysMapped)
        } catch {
            throw DataLoadError(file: file.lastPathComponent, reason: "cannot be read (\(error.localizedDescription))")
        }
        let decoded = data.withUnsafeBytes { bytes in
            Result { () throws(DataLoadError) in try decodeOrders(bytes, file: file.lastPathComponent) }
        }
        let orders = try decoded.get()
        let store = OrderStore(orders: orders)
        malloc_trim(0)  // hand the parser's freed memory back to the OS rather than keep it as RSS
        return store
    }

    /// Decodes a JSON array of orders element by element; ids must be unique.
    static func decodeOrders(_ bytes: UnsafeRawBufferPointer, file: String) throws(DataLoadError) -> [Order] {
        var orders: [Order] = []
        var seen = Set<String>()
        var interner = StringInterner()
        do {
            try JSONParser.forEachElement(ofArrayIn: bytes) { element in
                let path = "[\(orders.count)]"
                var order = try Order(json: element, path: path)
                guard seen.insert(order.id).inserted else {
                    throw JSONFieldError(path: "\(path).id", reason: "'\(order.id)' is used by an earlier order")
                }
                order.shareStorage(using: &interner)
                orders.append(order)
            }
        } catch let error as JSONParser.Failure {
            throw DataLoadError(file: file, reason: error.description)
        } catch let error as JSONFieldError {
            throw DataLoadError(file: file, reason: error.description)
        } catch {
            throw DataLoadError(file: file, reason: "\(error)")
        }
        return orders
    }
}

extension Order {
    /// Replaces repeated strings with shared copies (names, cities, products).
    mutating func shareStorage(using interner: inout StringInterner) {
        customerName = interner.intern(customerName)
        currency = interner.intern(currency)
        shippingAddress.city = interner.intern(shippingAddress.city)
        shippingAddress.country = interner.intern(shippingAddress.country)
        for index in items.indices { items[index].name = interner.intern(items[index].name) }
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
