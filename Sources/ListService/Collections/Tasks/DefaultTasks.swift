import Basics
import Foundation

/// The embedded tasks: deterministic, due from 30 days before `anchor` to 90 days after.
enum DefaultTasks {
    static func make(count: Int = 2000, anchor: Date) -> [TaskItem] {
        var random = SplitMix64(seed: 11)
        let verbs = ["Review", "Write", "Fix", "Plan", "Call", "Email", "Ship", "Test", "Design", "Refactor"]
        let nouns = [
            "quarterly report", "login flow", "invoice #", "team offsite", "supplier", "release notes", "onboarding doc",
            "search screen", "budget", "crash on launch",
        ]
        let priorities: [TaskPriority] = [.low, .low, .low, .low, .medium, .medium, .medium, .medium, .high, .high, .urgent]
        return (0..<count).map { index in
            TaskItem(
                id: Tasks.id(sequence: index + 1),
                title: "\(random.pick(verbs)) \(random.pick(nouns))",
                isActive: random.below(10) < 8, isArchived: random.below(100) < 15,
                dueDate: anchor.addingTimeInterval(Double(random.below(120 * 24 * 60) - 30 * 24 * 60) * 60),
                priority: random.pick(priorities),
                // Spread over the orders' customers as the shared data set's tasks are (`generate.py`).
                owner: DefaultOrders.customer(number: (index * 7919) % DefaultOrders.customerCount + 1))
        }
    }
}
