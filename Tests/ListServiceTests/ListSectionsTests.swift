import Basics
import Foundation
import Testing

@testable import ListService

/// Every grouped list's `sections`: equal to a grouping by brute force (keys, counts,
/// `firstIndex`, summaries, each row's `sectionKey`) in three zones and at a zone's midnight,
/// titles as the client's locale writes them, cursors that open each section, and the
/// alphabetic index of de, sv and ja.
@Suite struct ListSectionsTests {
    /// Midnight in Berlin: 27 November has just begun there, while it is still 26 November in
    /// UTC and in Los Angeles, and already afternoon of the 27th in Kiritimati (+14).
    static let midnightInBerlin = ISO8601.parse("2026-11-26T23:00:00Z") ?? Date()
    static let orders =
        DefaultOrders.make(count: 3_000, anchor: midnightInBerlin) + [
            Order.make(id: "o-late", date: midnightInBerlin - 1, status: .pending),
            Order.make(id: "o-early", date: midnightInBerlin, status: .completed),
        ]

    struct Section: Equatable, CustomStringConvertible {
        let key: String
        let count: Int
        let firstIndex: Int
        var summary: String?
        var description: String { "\(key) ×\(count) @\(firstIndex) \(summary ?? "")" }
    }

    static func page<C: ListCollection>(_ query: String, _ engine: CollectionEngine<C>) throws -> [String: Any] {
        let criteria = try ListCountsTests.criteria(query, now: engine.now, C.self)
        let (page, _) = try engine.page(for: criteria)
        return try #require(try JSONSerialization.jsonObject(with: Data(page.body)) as? [String: Any])
    }

    static func sections(of body: [String: Any]) throws -> [[String: Any]] {
        try #require(body["sections"] as? [[String: Any]])
    }

    /// Consecutive runs of equal keys along `items`.
    static func group<T>(_ items: [T], key: (T) -> String, summary: ([T]) -> String? = { _ in nil }) -> [Section] {
        var sections: [Section] = []
        var members: [T] = []
        for (index, item) in items.enumerated() {
            let itemKey = key(item)
            if let last = sections.last, last.key == itemKey {
                sections[sections.count - 1] = Section(key: itemKey, count: last.count + 1, firstIndex: last.firstIndex)
            } else {
                if !sections.isEmpty { sections[sections.count - 1].summary = summary(members) }
                members = []
                sections.append(Section(key: itemKey, count: 1, firstIndex: index))
            }
            members.append(item)
        }
        if !sections.isEmpty { sections[sections.count - 1].summary = summary(members) }
        return sections
    }

    static func dollars(_ cents: Int64, locale: String) -> String {
        let formatter = NumberFormatter()
        formatter.locale = Locale(identifier: locale)
        formatter.numberStyle = .currency
        formatter.currencyCode = "USD"
        return "≈ " + (formatter.string(from: NSDecimalNumber(decimal: Decimal(cents) / 100)) ?? "")
    }

    /// The key of the magnitude band a shown magnitude falls in.
    static func bandKey(shownMagnitude shown: Double) -> String {
        shown < 2 ? "under2" : shown < 4 ? "2to4" : shown < 6 ? "4to6" : "6plus"
    }

    static func served(_ sections: [[String: Any]]) -> [Section] {
        sections.map {
            Section(
                key: $0["key"] as? String ?? "", count: $0["count"] as? Int ?? -1, firstIndex: $0["firstIndex"] as? Int ?? -1,
                summary: $0["summary"] as? String)
        }
    }

    /// A grouped page is its own lead and the list's sections, which every page of the list
    /// shares as they are (one buffer, not a copy per page); joined, they are the page a
    /// client reads, and a session's selection goes in the lead.
    @Test func groupedPages_shareTheSectionsAsTheirTail() throws {
        let engine = CollectionEngine(
            state: CollectionState<Orders>(items: Self.orders), metrics: ServiceMetrics(), formatters: FormatterCache(),
            clock: { Self.midnightInBerlin })
        let (first, _) = try engine.page(for: ListCountsTests.criteria("sort=date&group=day&limit=5", now: engine.now, Orders.self))
        let (next, _) = try engine.page(for: ListCountsTests.criteria("sort=date&group=day&limit=5&offset=5", now: engine.now, Orders.self))
        let (tail, nextTail) = (try #require(first.tailBytes), try #require(next.tailBytes))
        #expect(tail.withUnsafeBufferPointer { $0.baseAddress } == nextTail.withUnsafeBufferPointer { $0.baseAddress })
        #expect(first.body == first.lead + tail && first.bodyCount == first.body.count)
        #expect(first.etag != next.etag)
        let body = try #require(try JSONSerialization.jsonObject(with: Data(first.body)) as? [String: Any])
        #expect(try Self.sections(of: body).count > 1)
        let echoed = first.echoing(selectedID: "o-late")
        let echoedBody = try #require(try JSONSerialization.jsonObject(with: Data(echoed.body)) as? [String: Any])
        #expect(echoedBody["selectedId"] as? String == "o-late")
        #expect(try Self.sections(of: echoedBody).count == Self.sections(of: body).count)
        #expect(echoed.tailBytes?.withUnsafeBufferPointer { $0.baseAddress } == tail.withUnsafeBufferPointer { $0.baseAddress })
        #expect(
            Self.served(try Self.sections(of: body)) == Self.served(try Self.sections(of: Self.page("sort=date&group=day&limit=5", engine)))
        )
        // Ungrouped pages have no tail.
        #expect(try engine.page(for: ListCountsTests.criteria("sort=date&limit=5", now: engine.now, Orders.self)).0.tailBytes == nil)
    }

    @Test func orderSections_equalABruteForceGrouping_inThreeZones_atMidnight() throws {
        let engine = CollectionEngine(
            state: CollectionState<Orders>(items: Self.orders), metrics: ServiceMetrics(), formatters: FormatterCache(),
            clock: { Self.midnightInBerlin })
        for zone in ["Europe/Berlin", "America/Los_Angeles", "Pacific/Kiritimati"] {
            for (group, sort) in [("day", "date"), ("month", "date"), ("status", "status")] {
                for (filter, search, order) in [("all", "", "desc"), ("pending", "jo", "asc"), ("highValue", "", "asc")] {
                    let query = "filter=\(filter)&q=\(search)&group=\(group)&order=\(order)&limit=40&offset=35&tz=\(zone)"
                    let body = try Self.page(query, engine)
                    let folded = TextFolding.fold(search)
                    let matching = Self.orders.filter {
                        OrderFilter(rawValue: filter)?.matches(Orders.filterFields(of: $0), currentMonth: nil) == true
                            && ListDefinition<Orders>.search(folded, finds: $0)
                    }
                    let field = try #require(OrderSortField(rawValue: sort))
                    let sorted = matching.sorted { a, b in
                        let (keyA, keyB) = (Orders.sortKey(of: a, by: field, in: .root), Orders.sortKey(of: b, by: field, in: .root))
                        if keyA == keyB { return a.id < b.id }
                        return order == "asc" ? keyA < keyB : keyB < keyA
                    }
                    let key: (Order) -> String = {
                        switch group {
                        case "day": CalendarDays.dayName(of: $0.date, in: zone)
                        case "month": String(CalendarDays.dayName(of: $0.date, in: zone).prefix(7))
                        default: $0.status.rawValue
                        }
                    }
                    let expected = Self.group(sorted, key: key) { members in
                        Self.dollars(members.reduce(0) { $0 + $1.totalInDollars.cents }, locale: "en_US")
                    }
                    #expect(Self.served(try Self.sections(of: body)) == expected, "\(query)")
                    let rows = try #require(body["items"] as? [[String: Any]])
                    #expect(rows.map { $0["sectionKey"] as? String } == sorted[35..<75].map(key), "\(query)")
                }
            }
        }
    }

    @Test func dayTitles_sayTodayAndYesterdayInTheClientsLanguage_andExpireAtItsMidnight() throws {
        let engine = CollectionEngine(
            state: CollectionState<Orders>(items: Self.orders), metrics: ServiceMetrics(), formatters: FormatterCache(),
            clock: { Self.midnightInBerlin })
        let english = try Self.sections(of: Self.page("group=day&tz=Europe/Berlin&locale=en-US", engine))
        #expect(english.prefix(3).map { $0["key"] as? String } == ["2026-11-27", "2026-11-26", "2026-11-25"])
        #expect(english.prefix(3).map { $0["title"] as? String } == ["Today", "Yesterday", "Wednesday, November 25"])
        #expect(english.prefix(2).map { $0["subtitle"] as? String } == ["Friday, November 27", "Thursday, November 26"])
        #expect(english[2]["subtitle"] == nil)
        let german = try Self.sections(of: Self.page("group=day&tz=Europe/Berlin&locale=de-DE", engine))
        #expect(german.prefix(3).map { $0["title"] as? String } == ["Heute", "Gestern", "Mittwoch, 25. November"])
        let lastYear = try #require(english.first { ($0["key"] as? String)?.hasPrefix("2025-") == true })
        #expect((lastYear["title"] as? String)?.hasSuffix(", 2025") == true, "a day of another year names its year")
        // One second earlier it is still the 26th in Berlin: the order at midnight is tomorrow's.
        let before = try Self.sections(
            of: Self.page(
                "group=day&tz=Europe/Berlin",
                CollectionEngine(
                    state: CollectionState<Orders>(items: Self.orders), metrics: ServiceMetrics(), formatters: FormatterCache(),
                    clock: { Self.midnightInBerlin - 1 })))
        #expect(before.prefix(2).map { $0["key"] as? String } == ["2026-11-27", "2026-11-26"])
        #expect(before.prefix(3).map { $0["title"] as? String } == ["Tomorrow", "Today", "Yesterday"])
        let months = try Self.sections(of: Self.page("group=month&locale=de-DE&tz=Europe/Berlin", engine))
        #expect(months.first?["title"] as? String == "November 2026")
        let criteria = try ListCountsTests.criteria("group=day&tz=America/Los_Angeles", now: engine.now, Orders.self)
        let (page, _) = try engine.page(for: criteria)
        #expect(page.validUntil == ISO8601.parse("2026-11-27T08:00:00Z"), "stale at the client's midnight")
    }

    @Test func aSectionsCursor_opensAPageAtItsFirstRow() throws {
        let engine = CollectionEngine(
            state: CollectionState<Orders>(items: Self.orders), metrics: ServiceMetrics(), formatters: FormatterCache(),
            clock: { Self.midnightInBerlin })
        let sections = try Self.sections(of: Self.page("group=month&filter=pending&limit=5", engine))
        #expect(sections.count > 12)
        for section in sections {
            let cursor = try #require(section["cursor"] as? String)
            let page = try Self.page("group=month&filter=pending&limit=5&cursor=\(cursor)", engine)
            let rows = try #require(page["items"] as? [[String: Any]])
            #expect(page["index"] as? Int == section["firstIndex"] as? Int)
            #expect(rows.first?["sectionKey"] as? String == section["key"] as? String)
        }
    }

    /// A section's cursor names its section, not the row before it: after an order joins the
    /// end of the section before, it still opens its own section (and is the same cursor);
    /// in another list grouped alike it opens that list's section of the key; once the section
    /// is gone, without `group` or grouped otherwise, it is refused, naming `cursor`. It is
    /// under a third of the length of a row's cursor.
    @Test func aSectionsCursor_followsItsSection_andIsRefusedOnceItIsGone() throws {
        let engine = CollectionEngine(
            state: CollectionState<Orders>(items: Self.orders), metrics: ServiceMetrics(), formatters: FormatterCache(),
            clock: { Self.midnightInBerlin })
        let base = "group=day&tz=Europe/Berlin"
        let query = base + "&limit=5"
        let before = try Self.page(query, engine)
        let sections = try Self.sections(of: before)
        let (previous, section) = (sections[1], sections[2])
        let cursor = try #require(section["cursor"] as? String)
        let rowCursor = try #require(before["nextCursor"] as? String)
        #expect(cursor.count * 3 < rowCursor.count)
        // An order at the very end of the previous (newer) day, just before this section.
        let previousRows = try #require(
            Self.page("\(base)&limit=\(previous["count"] as? Int ?? 0)&cursor=\(previous["cursor"] as? String ?? "")", engine)["items"]
                as? [[String: Any]])
        let lastOfPrevious = try #require(Self.orders.first { $0.id == previousRows.last?["id"] as? String })
        engine.apply([.upsert(Order.make(id: "o-joiner", date: lastOfPrevious.date - 0.001, status: .pending))])
        let after = try Self.sections(of: Self.page(query, engine))
        #expect(after[2]["key"] as? String == section["key"] as? String)
        #expect(after[2]["cursor"] as? String == cursor, "the cursor is the section's, whatever comes before it")
        let opened = try Self.page("\(query)&cursor=\(cursor)", engine)
        #expect(opened["index"] as? Int == after[2]["firstIndex"] as? Int)
        #expect((opened["items"] as? [[String: Any]])?.first?["sectionKey"] as? String == section["key"] as? String)
        // Its orders deleted, the section is gone and its cursor refused.
        let rows = try #require(
            Self.page("\(base)&limit=\(section["count"] as? Int ?? 0)&cursor=\(cursor)", engine)["items"] as? [[String: Any]])
        engine.apply(rows.compactMap { $0["id"] as? String }.map { .delete(id: $0) })
        #expect(try Self.sections(of: Self.page(query, engine)).allSatisfy { $0["key"] as? String != section["key"] as? String })
        let another = try #require(after[3]["cursor"] as? String)
        let refused = ["\(query)&cursor=\(cursor)", "tz=Europe/Berlin&cursor=\(another)", "group=month&tz=Europe/Berlin&cursor=\(another)"]
        for query in refused {
            #expect {
                try Self.page(query, engine)
            } throws: { error in
                (error as? ListServiceError)?.parameter == "cursor" && (error as? ListServiceError)?.kind == .invalidParameter
            }
        }
        let now = try Self.sections(of: Self.page(query, engine)).first { $0["key"] as? String == after[3]["key"] as? String }
        #expect(try Self.page("\(query)&cursor=\(another)", engine)["index"] as? Int == now?["firstIndex"] as? Int)
        // The same section's cursor, taken from the whole list, opens it in the pending list.
        let pendingSections = try Self.sections(of: Self.page("\(query)&filter=pending", engine))
        let shared = try #require(
            pendingSections.dropFirst().first { section in after.contains { $0["key"] as? String == section["key"] as? String } })
        let fromAll = try #require(after.first { $0["key"] as? String == shared["key"] as? String }?["cursor"] as? String)
        #expect(fromAll == shared["cursor"] as? String)
        #expect(try Self.page("\(query)&filter=pending&cursor=\(fromAll)", engine)["index"] as? Int == shared["firstIndex"] as? Int)
    }

    @Test func taskSections_overdueTodayTomorrowThisWeekLater_byTheLocalesWeek() throws {
        let now = ISO8601.parse("2026-11-28T10:00:00Z") ?? Date()  // a Saturday
        let tasks = DefaultTasks.make(count: 600, anchor: now)
        let engine = CollectionEngine(
            state: CollectionState<Tasks>(items: tasks), metrics: ServiceMetrics(), formatters: FormatterCache(), clock: { now })
        for (zone, locale) in [("UTC", "en-US"), ("Asia/Tokyo", "de-DE"), ("America/Los_Angeles", "de-DE")] {
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = TimeZone(identifier: zone) ?? .gmt
            calendar.firstWeekday = locale == "en-US" ? 1 : 2  // Sunday in the US, Monday in Germany
            let today = calendar.startOfDay(for: now)
            let tomorrow = try #require(calendar.date(byAdding: .day, value: 1, to: today))
            let dayAfter = try #require(calendar.date(byAdding: .day, value: 2, to: today))
            let weekEnd = try #require(calendar.dateInterval(of: .weekOfYear, for: now)?.end)
            let key: (TaskItem) -> String = { task in
                if task.dueDate < now { return "overdue" }
                if task.dueDate < tomorrow { return "today" }
                if task.dueDate < dayAfter { return "tomorrow" }
                return task.dueDate < weekEnd ? "thisWeek" : "later"
            }
            let open = tasks.filter(\.isOpen).sorted { ($0.dueDate, $0.id) < ($1.dueDate, $1.id) }
            let expected = Self.group(open, key: key) { members in
                let overdue = members.count { $0.isOverdue(at: now) }
                return overdue > 0 ? "\(overdue) \(locale == "en-US" ? "overdue" : "überfällig")" : nil
            }
            let body = try Self.page("group=due&tz=\(zone)&locale=\(locale)", engine)
            #expect(Self.served(try Self.sections(of: body)) == expected, "\(zone) \(locale)")
        }
        let english = try Self.sections(of: Self.page("group=due&tz=UTC", engine))
        #expect(english.map { $0["title"] as? String } == ["Overdue", "Today", "Tomorrow", "Later"], "Saturday: no more of this week")
        let byPriority = try Self.sections(of: Self.page("group=priority&locale=de-DE", engine))
        #expect(byPriority.map { $0["title"] as? String } == ["Dringend", "Hoch", "Mittel", "Niedrig"])
    }

    @Test func quakeSections_byLocalHourAndMagnitudeBand() throws {
        let now = ISO8601.parse("2026-11-30T23:30:00Z") ?? Date()
        let quakes = DefaultQuakes.make(count: 2_000, anchor: now)
        let engine = CollectionEngine(
            state: CollectionState<Quakes>(items: quakes), metrics: ServiceMetrics(), formatters: FormatterCache(), clock: { now })
        let zone = "Asia/Kolkata"  // +5:30: local hours are not UTC hours
        let day = CalendarDays.day(containing: now, in: zone)
        let ofTheDay = quakes.filter { day.contains($0.time) }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: zone) ?? .gmt
        let byTime = ofTheDay.sorted { ($1.time, $0.id) < ($0.time, $1.id) }
        let hours = Self.group(byTime) { quake in
            "\(CalendarDays.dayName(of: quake.time, in: zone))T\(String(format: "%02d", calendar.component(.hour, from: quake.time)))"
        }
        #expect(Self.served(try Self.sections(of: Self.page("group=hour&tz=\(zone)", engine))) == hours)
        let byMagnitude = ofTheDay.sorted {
            let (a, b) = (Quakes.sortKey(of: $0, by: .magnitude, in: .root), Quakes.sortKey(of: $1, by: .magnitude, in: .root))
            return a == b ? $0.id < $1.id : b < a
        }
        let bands = Self.group(byMagnitude) { quake in
            guard let magnitude = quake.magnitude else { return "unknown" }
            return Self.bandKey(shownMagnitude: (magnitude * 10).rounded() / 10)  // as the row shows it, to a tenth
        }
        #expect(Self.served(try Self.sections(of: Self.page("group=magnitude&tz=\(zone)", engine))) == bands)
    }

    /// A quake sits in the band of the magnitude its row shows: 5.97 reads "M 6.0" and is
    /// counted and grouped with the sixes, 1.95 ("M 2.0") with the twos, 1.94 ("M 1.9") under 2.
    @Test func aQuakesBand_isThatOfTheMagnitudeItsRowShows() throws {
        let now = ISO8601.parse("2026-11-30T12:00:00Z") ?? Date()
        let magnitudes: [Double?] = [5.97, 5.94, 6.0, 3.96, 3.949, 1.95, 1.94, -0.04, nil]
        let quakes = magnitudes.enumerated().map { index, magnitude in
            Earthquake(
                id: "q\(index)", magnitude: magnitude, place: "Somewhere", time: now.addingTimeInterval(-Double(index) * 60),
                updated: now, longitude: 0, latitude: 0, depthKm: 10)
        }
        let engine = CollectionEngine(
            state: CollectionState<Quakes>(items: quakes), metrics: ServiceMetrics(), formatters: FormatterCache(), clock: { now })
        let body = try Self.page("group=magnitude&tz=UTC&locale=en-US", engine)
        let rows = try #require(body["items"] as? [[String: Any]])
        #expect(rows.count == magnitudes.count)
        var shownBands: [String: Int] = [:]
        for row in rows {
            let shown = (row["formattedMagnitude"] as? String).flatMap { Double($0.dropFirst(2)) }
            let band = shown.map(Self.bandKey) ?? "unknown"
            #expect(row["sectionKey"] as? String == band, "\(row["formattedMagnitude"] ?? "")")
            #expect((row["magnitudeBand"] as? String ?? "unknown") == band, "its colour is its count's")
            shownBands[band, default: 0] += 1
        }
        #expect(shownBands == ["6plus": 2, "4to6": 2, "2to4": 2, "under2": 2, "unknown": 1])
        let counts = try #require(body["counts"] as? [String: Int])
        #expect(counts == ["all": 9, "6plus": 2, "4to6": 2, "2to4": 2, "under2": 2])
    }

    @Test func theAlphabeticIndex_filesNamesAsEachLocaleDoes() {
        let german = AlphabeticIndex(localeTag: "de-DE")
        let swedish = AlphabeticIndex(localeTag: "sv-SE")
        let japanese = AlphabeticIndex(localeTag: "ja-JP")
        func letter(_ name: String, _ index: AlphabeticIndex) -> String { index.letters[index.letterIndex(of: name)] }
        #expect(letter("Ärla", german) == "A" && letter("Östen", german) == "O" && letter("Åsa", german) == "A")
        #expect(letter("Ärla", swedish) == "Ä" && letter("Östen", swedish) == "Ö" && letter("Åsa", swedish) == "Å")
        #expect(swedish.letters.suffix(4) == ["Å", "Ä", "Ö", "#"], "Swedish letters follow Z, # last")
        #expect(letter("émile", german) == "E" && letter("zoë", swedish) == "Z")
        #expect(letter("7-Eleven", german) == "#" && letter("Σοφία", german) == "#" && letter("", german) == "#")
        #expect(letter("ゆき", japanese) == "や" && letter("カトウ", japanese) == "か" && letter("さくら", japanese) == "さ")
        #expect(letter("ん", japanese) == "わ" && letter("Ada", japanese) == "A" && letter("山田", japanese) == "#")
        #expect(letter("ゆき", german) == "#", "kana are Japanese index letters only")
        #expect(japanese.letters.firstIndex(of: "あ") == 26 && japanese.letters.last == "#")
    }

    @Test func peopleSections_followTheIndex() throws {
        let users = DefaultUsers.make(count: 200) + [User(id: "u-digit", name: "9 Lives", taps: 0)]
        let engine = CollectionEngine(
            state: CollectionState<Users>(items: users), metrics: ServiceMetrics(), formatters: FormatterCache(), clock: { Date() })
        let sorted = users.sorted {
            let (a, b) = (Users.sortKey(of: $0, by: .name, in: .root), Users.sortKey(of: $1, by: .name, in: .root))
            return a == b ? $0.id < $1.id : a < b
        }
        let index = AlphabeticIndex(localeTag: "de")
        let expected = Self.group(sorted) { index.letters[index.letterIndex(of: $0.name)] }
        let served = Self.served(try Self.sections(of: Self.page("group=initial&locale=de-DE&limit=500", engine)))
        #expect(served == expected)
        #expect(served.last?.key == "#" && served.last?.count == 1, "a name starting with a digit sorts last, under #")
    }

    @Test func aGroupingThatDoesNotFitTheSort_isRefusedNamingBoth_andAloneItPicksItsSort() throws {
        let now = Self.midnightInBerlin
        #expect {
            _ = try ListCountsTests.criteria("group=day&sort=total", now: now, Orders.self)
        } throws: { error in
            (error as? ListServiceError)?.parameters == ["group", "sort"] && (error as? ListServiceError)?.kind == .invalidParameter
        }
        #expect(throws: ListServiceError.self) { _ = try ListCountsTests.criteria("group=week", now: now, Orders.self) }
        #expect(try ListCountsTests.criteria("group=status", now: now, Orders.self).sort == .status)
        #expect(try ListCountsTests.criteria("group=priority", now: now, Tasks.self).sort == .priority)
        #expect(throws: ListServiceError.self) { _ = try ListCountsTests.criteria("view=all&group=due&sort=title", now: now, Tasks.self) }
    }

    @Test func sortByStatus_isPendingCompletedCancelled_thenTheNewestFirst() throws {
        let engine = CollectionEngine(
            state: CollectionState<Orders>(items: Self.orders), metrics: ServiceMetrics(), formatters: FormatterCache(),
            clock: { Self.midnightInBerlin })
        let body = try Self.page("sort=status&limit=500&offset=700", engine)
        let ids = try #require(body["items"] as? [[String: Any]]).compactMap { $0["id"] as? String }
        let byID = Dictionary(uniqueKeysWithValues: Self.orders.map { ($0.id, $0) })
        let rows = ids.compactMap { byID[$0] }
        let expected = rows.sorted {
            $0.status.rank != $1.status.rank ? $0.status.rank < $1.status.rank : ($0.date, $1.id) > ($1.date, $0.id)
        }
        #expect(rows.map(\.id) == expected.map(\.id) && Set(rows.map(\.status)).count > 1)
    }
}
