import HTTPLite
import Basics

/// Lets routes built before the server exists read its counters once it runs.
final class ServerStatisticsBox: Sendable {
    private let statistics = Locked<ServerStatistics?>(nil)

    func attach(_ statistics: ServerStatistics) { self.statistics.withLock { $0 = statistics } }

    var snapshot: ServerStatistics.Snapshot? { statistics.withLock { $0?.snapshot } }
}
