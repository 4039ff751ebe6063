import Foundation

/// The whole service without HTTP: data, engines, sessions and counters, wired once.
public final class ListService: Sendable {
    public let orders: OrderListEngine
    public let sessions: SessionStore
    public let metrics: ServiceMetrics

    /// `sharedPages` bounds the pages shared between sessions; 0 turns sharing off.
    public init(
        orders: OrderStore, sessions: SessionStore = SessionStore(), sharedPages: Int = 2048,
        clock: @escaping @Sendable () -> Date = Date.init
    ) {
        let metrics = ServiceMetrics()
        self.metrics = metrics
        self.sessions = sessions
        self.orders = OrderListEngine(store: orders, metrics: metrics, pageCapacity: sharedPages, clock: clock)
    }

    /// Loads every collection from `directory` (`orders.json`), or the embedded default data.
    public static func loadStore(directory: URL?) throws(DataLoadError) -> OrderStore {
        guard let directory else {
            return OrderStore(orders: DefaultOrders.make(anchor: Calendar.startOfUTCDay(Date())))
        }
        return try OrderStore.load(file: directory.appendingPathComponent("orders.json"))
    }
}

extension Calendar {
    /// Midnight UTC of the day containing `date`: the embedded data's anchor, so it is the
    /// same all day and "this month" always has orders.
    static func startOfUTCDay(_ date: Date) -> Date {
        Date(timeIntervalSince1970: (date.timeIntervalSince1970 / 86_400).rounded(.down) * 86_400)
    }
}
