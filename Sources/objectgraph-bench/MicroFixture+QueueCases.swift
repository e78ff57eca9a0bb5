import Foundation
import ObjectGraph

// Cases on a context's queue: what `performAndWait` and `perform` cost around a tiny block,
// the overhead the deterministic scheduler's hook must not raise in production.

extension MicroFixture {
    func queueCases() -> [MicroCase] {
        let n = count
        return [
            MicroCase(
                name: "context.performAndWait", unit: "blocks",
                explains: "performAndWait { one property read } on a private-queue context"
            ) { [self] in
                let context = self.context()
                return try timed(n) {
                    var names = 0
                    for _ in 0..<n {
                        names += context.performAndWait { context.name == nil ? 1 : 0 }
                    }
                    blackHole(names)
                }
            },
            MicroCase(
                name: "context.perform", unit: "blocks",
                explains: "N perform { } blocks queued, then one performAndWait waits for them"
            ) { [self] in
                let context = self.context()
                return try timed(n) {
                    for _ in 0..<n { context.perform {} }
                    context.performAndWait {}
                }
            },
        ]
    }
}
