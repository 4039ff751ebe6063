import ListServiceClient

/// What a terminal shows of a row: a few columns of its display fields.
protocol RowColumns {
    var columns: [String] { get }
}

extension OrderRow: RowColumns {
    var columns: [String] { [title, customerName, statusLabel, formattedTotal, formattedDate] }
}

extension TaskRow: RowColumns {
    var columns: [String] { [title, priorityLabel, dueLabel, formattedDueDate] }
}

extension UserRow: RowColumns {
    var columns: [String] { [name, tapsLabel] }
}

extension QuakeRow: RowColumns {
    var columns: [String] { [formattedMagnitude, place, formattedTime, formattedDepth] }
}

extension QuakeMarker: RowColumns {
    var columns: [String] { [formattedMagnitude, place, formattedTime] }
}
