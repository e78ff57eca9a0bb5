import Foundation

extension JSONLinesStore {
    /// Migrates the rows of a file written with `stored` (an earlier version of ``model``)
    /// while opening it (<doc:VersioningAndMigration#On-the-file-store>).
    ///
    /// The plan is decided and every row migrated in memory first: a refusal or a failure
    /// leaves the file untouched. A writer then replaces the file once, as a snapshot of the
    /// migrated rows (`FILE.tmp`, synced, the old file linked to `FILE.pre-migration` unless
    /// ``StoreOptions/keepsPreMigrationFile`` is off, one rename, directory sync): a crash at
    /// any point leaves the old file or the migrated one. The store's UUID, creation date and
    /// metadata stay, and transaction numbers continue from the old file's last one. With
    /// persistent history, the migration takes the next number (the snapshot's `base`),
    /// recorded as a transaction without changes by
    /// ``PersistentHistoryTransaction/migrationAuthor``; the history kept and its tokens stay
    /// valid. A reader leaves the file as it is and reads the migrated rows.
    func migrateAtOpen(from stored: ManagedObjectModel) throws {
        let plan: MigrationPlan
        // Progress in rows: each step migrates every row, then a writer writes every row.
        let progress = options.migrationProgress
        let rows = table.totalRowCount
        do {
            plan = try MigrationPlan.plan(from: stored, to: model, options: options, path: path)
            let total = rows * (plan.steps.count + (isReadOnly ? 0 : 1))
            progress?(0, total)
            // The store gives up its rows so the migration maps them in place (issue 20); on
            // a failure the open fails and the store is discarded.
            let held = table
            table = RowTable(model: stored, storeIdentifier: identifier)
            table = try plan.run(
                consume held, afterStep: progress.map { report in { report(rows * $0, total) } })
        } catch {
            throw MigrationErrors.located(error, path: path)
        }
        recordedCounters = table.primaryKeyCounters
        liveRowBytes = nil
        let from = MigrationPlan.versionName(of: stored)
        let to = MigrationPlan.versionName(of: model)
        if isReadOnly {
            historyLog = historyLog?.remapped(to: model)
            readsMigratedRows = true
            notices.append(
                "store \(path): written with \(from); read as \(to) without changing the file "
                    + "(the first writer migrates it)")
            return
        }
        codec = RowCodec(model: model, storeIdentifier: identifier, path: path)
        // With history, the migration is one more transaction: the snapshot's `base` is its
        // number, recorded (no changes) after the history kept, whose objects now belong to
        // the new model's entities; older tokens stay valid.
        if var file, let history = historyLog {
            file.lastTransaction += 1
            historyLog = history.remapped(to: model)
            historyLog?.append(
                StoreHistoryTransaction(
                    number: file.lastTransaction, timestamp: options.clock(),
                    author: PersistentHistoryTransaction.migrationAuthor,
                    contextName: "\(from) → \(to)", changes: []))
            self.file = file
        }
        let kept = options.keepsPreMigrationFile ? path + ".pre-migration" : nil
        do {
            let migrated = rows * plan.steps.count
            try locked {
                try compactHoldingLock(
                    keepingOldFileAs: kept,
                    progress: progress.map { report in
                        // Scaled to the rows counted before (a custom stage may change them).
                        { written, snapshot in
                            report(migrated + written * rows / max(snapshot, 1), migrated + rows)
                        }
                    })
            }
            progress?(migrated + rows, migrated + rows)
        } catch let e as ObjectGraphError {
            throw ObjectGraphError(
                .migrationDestinationStoreFailed,
                "store \(path): migrating from \(from) to \(to) failed; the file is unchanged: "
                    + e.message, file: path, underlying: [e])
        }
        notices.append(
            "store \(path): migrated from \(from) to \(to) (\(plan.steps.count) step"
                + (plan.steps.count == 1 ? "" : "s")
                + (kept.map { "; the old file is kept as \($0)" } ?? "") + ")")
    }
}

extension JSONLinesStore {
    /// What migrating this store's rows to `target` would do, one line per change with the
    /// rows it touches, checked by running it in memory (nothing is written). The store's own
    /// model is taken as an earlier version of `target` (an explicit request).
    ///
    /// - Throws: The errors the migration would throw (134140, 134110, 134111).
    package func describeMigration(to target: ManagedObjectModel) throws -> [String] {
        try locked {
            try refreshIfNeeded()
            if SchemaComparison.differences(from: model, to: target).isEmpty {
                return ["no schema change: the file opens with the model as it is"]
            }
            var explicit = options
            explicit.modelVersions = [model]
            explicit.stagedMigrationManager = nil
            explicit.shouldMigrateStoreAutomatically = true
            explicit.shouldInferMappingModelAutomatically = true
            do {
                let plan = try MigrationPlan.plan(
                    from: model, to: target, options: explicit, path: path)
                _ = try plan.run(table)
                return plan.describe(rows: table)
            } catch {
                throw MigrationErrors.located(error, path: path)
            }
        }
    }
}
