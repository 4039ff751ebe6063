import Basics
/// The embedded people: deterministic names, each with a few taps already.
enum DefaultUsers {
    static func make(count: Int = 300) -> [User] {
        var random = SplitMix64(seed: 17)
        let givenNames = [
            "Ada", "Alan", "Grace", "Linus", "Margaret", "Dennis", "Barbara", "Ken", "Frances", "Edsger", "Hedy", "Donald",
            "Radia", "Tim", "Katherine", "John", "Sophie", "Jürgen", "José", "Chloé", "Zoë", "Mei", "Hiroshi", "Anaïs",
        ]
        let familyNames = [
            "Lovelace", "Turing", "Hopper", "Torvalds", "Hamilton", "Ritchie", "Liskov", "Thompson", "Allen", "Dijkstra",
            "Lamarr", "Knuth", "Perlman", "Berners-Lee", "Johnson", "McCarthy", "Wilson", "Müller", "García", "Dubois",
            "Tanaka", "Nakamura", "Åström", "O'Brien",
        ]
        return (0..<count).map { index in
            User(
                id: Users.id(sequence: index + 1), name: "\(random.pick(givenNames)) \(random.pick(familyNames))",
                taps: random.below(4) == 0 ? 0 : random.below(60))
        }
    }
}
