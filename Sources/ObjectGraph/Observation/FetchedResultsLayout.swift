import Foundation

/// Where one fetched object sits: the values it was last placed by.
///
/// The controller orders objects by these recorded values, not by the objects' current ones,
/// so the array stays searchable while objects change between events: an object's old
/// position is found from its old values.
struct FetchedPlacement {
    /// The first sort key (a controller's request has at least one sort descriptor).
    var first: AttributeValue
    /// The second sort key, or `.null` (unread) with a single sort descriptor.
    var second: AttributeValue
    /// The sort keys after the second, one per further sort descriptor: empty, so nothing is
    /// allocated per object, for the usual one or two descriptors.
    var more: [AttributeValue]
    /// The section name (`""` without a section key path or for a nil value).
    var section: String
    /// Breaks ties between equal keys: fetch order, then arrival order.
    var sequence: Int

    /// A placement by `first`, `second` (`.null` with one sort descriptor) and `more`.
    init(
        first: AttributeValue, second: AttributeValue = .null, more: [AttributeValue] = [],
        section: String, sequence: Int
    ) {
        self.first = first
        self.second = second
        self.more = more
        self.section = section
        self.sequence = sequence
    }

    /// The sort key of sort descriptor `i`.
    func key(_ i: Int) -> AttributeValue { i == 0 ? first : i == 1 ? second : more[i - 2] }
}

/// One fetched object and its placement.
struct FetchedEntry {
    let object: ManagedObject
    var placement: FetchedPlacement
}

/// One run of equal section names in the ordered entries.
struct SectionRun: Equatable {
    var name: String
    var start: Int
    var count: Int
}

/// The fetched objects in order, grouped in sections: a sorted array searched by binary
/// search, and the section runs over it.
///
/// Sections are maximal runs of equal section names. When a section key path follows the
/// first sort descriptor (as Core Data requires) every name has one run.
struct FetchedResultsLayout {
    private(set) var entries: [FetchedEntry] = []
    private(set) var sections: [SectionRun] = []
    /// Whether there is always exactly one section (no section key path).
    let isSingleSection: Bool
    let sorts: [CompiledSortDescriptor]

    init(sorts: [CompiledSortDescriptor], isSingleSection: Bool) {
        self.sorts = sorts
        self.isSingleSection = isSingleSection
        rebuildSections()
    }

    /// Whether `a` comes before `b`.
    func precedes(_ a: FetchedPlacement, _ b: FetchedPlacement) -> Bool {
        let order = sorts[0].compareValues(a.first, b.first)
        if order != .orderedSame { return order == .orderedAscending }
        if sorts.count > 1 {
            let order = sorts[1].compareValues(a.second, b.second)
            if order != .orderedSame { return order == .orderedAscending }
            for i in a.more.indices {
                let order = sorts[i + 2].compareValues(a.more[i], b.more[i])
                if order != .orderedSame { return order == .orderedAscending }
            }
        }
        return a.sequence < b.sequence
    }

    /// Whether `a` and `b` have equal sort keys.
    func sameKeys(_ a: FetchedPlacement, _ b: FetchedPlacement) -> Bool {
        for i in sorts.indices where sorts[i].compareValues(a.key(i), b.key(i)) != .orderedSame {
            return false
        }
        return true
    }

    /// The first index whose entry does not come before `placement`.
    ///
    /// - Complexity: O(log n) comparisons.
    func insertionIndex(for placement: FetchedPlacement) -> Int {
        var low = 0
        var high = entries.count
        while low < high {
            let mid = (low + high) / 2
            if precedes(entries[mid].placement, placement) { low = mid + 1 } else { high = mid }
        }
        return low
    }

    /// The index of `object` placed at `placement`, or `nil`.
    func index(of object: ManagedObject, at placement: FetchedPlacement) -> Int? {
        let i = insertionIndex(for: placement)
        if i < entries.count, entries[i].object === object { return i }
        return nil
    }

    /// The section holding flat index `index` (the last section starting at or before it).
    func sectionIndex(containing index: Int) -> Int {
        var low = 0
        var high = sections.count
        while low < high {
            let mid = (low + high) / 2
            if sections[mid].start <= index { low = mid + 1 } else { high = mid }
        }
        return max(0, low - 1)
    }

    /// The index path of flat index `index`.
    func indexPath(at index: Int) -> IndexPath {
        let s = sectionIndex(containing: index)
        return IndexPath(item: index - sections[s].start, section: s)
    }

    /// The flat index of `indexPath`, or `nil` when it is out of range.
    func flatIndex(of indexPath: IndexPath) -> Int? {
        guard indexPath.count == 2 else { return nil }
        let s = indexPath[0]
        let row = indexPath[1]
        guard sections.indices.contains(s), row >= 0, row < sections[s].count else { return nil }
        return sections[s].start + row
    }

    /// The nearest object before flat index `index` that is not in `skipped`, or `nil`.
    ///
    /// - Complexity: O(number of skipped objects passed over).
    func anchor(before index: Int, skipping skipped: Set<ObjectIdentifier>) -> ManagedObject? {
        var i = index - 1
        while i >= 0 {
            let object = entries[i].object
            if !skipped.contains(ObjectIdentifier(object)) { return object }
            i -= 1
        }
        return nil
    }

    // MARK: Changing

    /// Replaces every entry (already in order) and recomputes the sections.
    mutating func replaceAll(_ newEntries: [FetchedEntry]) {
        entries = newEntries
        rebuildSections()
    }

    /// Inserts `entry` at its place.
    ///
    /// - Complexity: O(log n) comparisons, plus moving the entries and sections after it.
    mutating func insert(_ entry: FetchedEntry) {
        let i = insertionIndex(for: entry.placement)
        entries.insert(entry, at: i)
        guard !isSingleSection else {
            sections[0].count += 1
            return
        }
        let name = entry.placement.section
        // The runs before and after the gap at `i`.
        let after = sections.firstIndex { $0.start >= i } ?? sections.count
        let before = after - 1
        let beforeEndsAtGap = before >= 0 && sections[before].start + sections[before].count == i
        if before >= 0, !beforeEndsAtGap {
            // Inside a run.
            if sections[before].name == name {
                sections[before].count += 1
                shiftStarts(from: after, by: 1)
            } else {
                // Out of order for the section key: split the run around the new entry.
                let run = sections[before]
                let head = i - run.start
                sections[before].count = head
                sections.insert(SectionRun(name: name, start: i, count: 1), at: after)
                sections.insert(
                    SectionRun(name: run.name, start: i + 1, count: run.count - head),
                    at: after + 1)
                shiftStarts(from: after + 2, by: 1)
            }
        } else if before >= 0, sections[before].name == name {
            sections[before].count += 1
            shiftStarts(from: after, by: 1)
        } else if after < sections.count, sections[after].name == name {
            sections[after].count += 1
            shiftStarts(from: after + 1, by: 1)
        } else {
            sections.insert(SectionRun(name: name, start: i, count: 1), at: after)
            shiftStarts(from: after + 1, by: 1)
        }
    }

    /// Removes the entry at flat index `index`.
    mutating func remove(at index: Int) {
        entries.remove(at: index)
        let s = sectionIndex(containing: index)
        sections[s].count -= 1
        if sections[s].count == 0, !isSingleSection {
            sections.remove(at: s)
            shiftStarts(from: s, by: -1)
            mergeRuns(around: s)
        } else {
            shiftStarts(from: s + 1, by: -1)
        }
    }

    private mutating func shiftStarts(from section: Int, by delta: Int) {
        guard section < sections.count else { return }
        for s in section..<sections.count { sections[s].start += delta }
    }

    /// Joins the runs at `s - 1` and `s` when removing the run between them left them adjacent
    /// with the same name.
    private mutating func mergeRuns(around s: Int) {
        guard s > 0, s < sections.count, sections[s - 1].name == sections[s].name else { return }
        sections[s - 1].count += sections[s].count
        sections.remove(at: s)
    }

    private mutating func rebuildSections() {
        if isSingleSection {
            sections = [SectionRun(name: "", start: 0, count: entries.count)]
            return
        }
        var runs: [SectionRun] = []
        // Through a buffer, reading only the names: iterating the array copies each entry.
        entries.withUnsafeBufferPointer { buffer in
            var start = 0
            for i in buffer.indices.dropFirst()
            where buffer[i].placement.section != buffer[start].placement.section {
                runs.append(
                    SectionRun(
                        name: buffer[start].placement.section, start: start, count: i - start))
                start = i
            }
            if !buffer.isEmpty {
                runs.append(
                    SectionRun(
                        name: buffer[start].placement.section, start: start,
                        count: buffer.count - start))
            }
        }
        sections = runs
    }
}
