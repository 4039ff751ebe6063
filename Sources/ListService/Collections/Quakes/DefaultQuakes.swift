import Basics
import Foundation

/// The embedded earthquakes: deterministic, in the 30 days before `anchor`.
enum DefaultQuakes {
    static func make(count: Int = 5000, anchor: Date) -> [Earthquake] {
        var random = SplitMix64(seed: 13)
        let places = [
            "Alaska", "California", "Nevada", "Hawaii", "Puerto Rico", "Japan", "Chile", "Indonesia", "Peru", "Mexico", "Türkiye",
            "Greece", "New Zealand", "Papua New Guinea", "Tonga", "Höfn, Iceland",
        ]
        let directions = ["N", "NE", "E", "SE", "S", "SW", "W", "NW"]
        let end = anchor.timeIntervalSince1970
        return (0..<count).map { index in
            let time = end - Double(random.below(30 * 24 * 3600))
            // Hundredths as a feed has them: one division, so 3.65 is written "3.65", not 3.6500000000000004.
            let magnitude = random.below(100) == 0 ? nil : Double(random.below(700) - 50) / 100
            let place = random.below(200) == 0 ? nil : "\(1 + random.below(199)) km \(random.pick(directions)) of \(random.pick(places))"
            return Earthquake(
                id: "us\(7_000_000 + index)", magnitude: magnitude, place: place, time: Date(timeIntervalSince1970: time),
                updated: Date(timeIntervalSince1970: time + Double(random.below(3600))),
                longitude: Double(random.below(3_600_000) - 1_800_000) / 10_000,
                latitude: Double(random.below(1_300_000) - 600_000) / 10_000,
                depthKm: Double(random.below(65_000)) / 100)
        }
    }
}
