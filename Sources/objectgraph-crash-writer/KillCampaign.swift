import CLISupport
import Foundation
import ObjectGraph
import ObjectGraphTesting

/// `objectgraph-crash-writer campaign DIR TRIALS SEED [--scenario NAME…]`: kills the programs
/// users run (the ledger's create, clean-up and import paths, three adds racing to create a
/// file, a two-step context save, `compact`, `repair`, `repair --salvage`, `seed`, `load`,
/// `migrate` and a staged migration with a custom stage)
/// with SIGKILL, two trials in three at a pause point inside a write window and the rest
/// after a random delay, and checks after each kill that nothing acknowledged was lost,
/// nothing was half applied, and the next command works.
/// StoreFileFormat.md §11 has the figures of the long runs.
enum KillCampaign {
    static func run(
        directory: String, trials: Int, seed: UInt64, only: [KillScenario], output: CLIOutput
    ) throws {
        let tools = try CampaignTools()
        let scenarios = only.isEmpty ? KillScenario.allCases : only
        var random = SeededRandomNumberGenerator(seed: seed)
        var failures = 0
        /// Per scenario: trials, killed at a pause point, killed after a delay.
        var tally: [String: (trials: Int, atSteps: Int, delayed: Int)] = [:]
        let started = Date()
        for number in 1...trials {
            let scenario = scenarios[(number - 1) % scenarios.count]
            let trialDirectory = (directory as NSString).appendingPathComponent(
                "\(scenario.rawValue)-\(seed)")
            try FileManager.default.createDirectory(
                atPath: trialDirectory, withIntermediateDirectories: true)
            var trial = CampaignTrial(
                number: number, directory: trialDirectory, tools: tools,
                random: SeededRandomNumberGenerator(seed: random.next()))
            let atStep = trial.next(3) < 2
            let step = atStep ? scenario.steps[trial.next(scenario.steps.count)] : nil
            let delay = trial.next(scenario.maximumDelay * 1000)
            var how = step.map { "at \($0)" } ?? "after \(delay / 1000) ms"
            var killedHow: WritableKeyPath<(trials: Int, atSteps: Int, delayed: Int), Int>?
            do {
                try scenario.prepare(&trial)
                let (tool, arguments) = scenario.command(trial)
                let child = try CampaignChild(tool, arguments, in: trialDirectory, pauseAt: step)
                let companions = try scenario.companions(trial).map {
                    try CampaignChild($0.0, $0.1, in: trialDirectory, pauseAt: nil)
                }
                if step != nil {
                    if child.waitForPause() { child.kill9() } else { how += " (not reached)" }
                } else {
                    usleep(UInt32(delay))
                    child.kill9()
                }
                var outcome = child.finish()
                if outcome.killed { killedHow = step != nil ? \.atSteps : \.delayed }
                if scenario == .contextSave, outcome.status != nil {
                    outcome.status = nil  // it writes until killed; an exit is a failure below
                    throw CrashViolation("the context writer exited: \(outcome.err)")
                }
                try scenario.check(&trial, outcome, companions: companions.map { $0.finish() })
                let ended = outcome.killed ? "killed" : "exit \(outcome.status!)"
                output.out("trial \(number): \(scenario.rawValue) \(how), \(ended): ok")
            } catch {
                failures += 1
                output.out("trial \(number): \(scenario.rawValue) \(how): FAIL \(error)")
            }
            tally[scenario.rawValue, default: (0, 0, 0)].trials += 1
            if let killedHow {
                tally[scenario.rawValue, default: (0, 0, 0)][keyPath: killedHow] += 1
            }
        }
        for (name, counts) in tally.sorted(by: { $0.key < $1.key }) {
            output.out(
                "  \(name): \(counts.trials) trials: \(counts.atSteps) killed at a pause point, "
                    + "\(counts.delayed) after a random delay, "
                    + "\(counts.trials - counts.atSteps - counts.delayed) ran to their end")
        }
        let seconds = Int(Date().timeIntervalSince(started))
        output.out("\(trials - failures) of \(trials) trials passed in \(seconds) s (seed \(seed))")
        if failures > 0 { throw CLIError.failure("\(failures) of \(trials) trials failed") }
    }
}
