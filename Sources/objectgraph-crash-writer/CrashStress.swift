import CLISupport
import Foundation
import ObjectGraphTesting

/// Many kill trials outside `swift test`: run a writer, SIGKILL it at a seeded moment, check.
enum CrashStress {
    static func run(directory: String, trials: Int, seed: UInt64, output: CLIOutput) async throws {
        let me = URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL
        var random = SeededRandomNumberGenerator(seed: seed)
        var failures = 0
        for trial in 1...trials {
            let file = "\(directory)/stress-\(seed)-\(trial % 4).jsonl"
            let sync = ["full", "normal", "off"][Int(random.next() % 3)]
            let kills = 1 + Int(random.next() % 25)
            let process = Process()
            process.executableURL = me
            process.arguments = ["write", file, String(random.next()), sync]
            let pipe = Pipe()
            process.standardOutput = pipe
            try process.run()
            var reported: Int64 = 0
            var seen = 0
            var buffer = Data()
            while seen < kills {
                let chunk = pipe.fileHandleForReading.availableData
                if chunk.isEmpty { break }
                buffer += chunk
                while let lf = buffer.firstIndex(of: 0x0A) {
                    let line = String(decoding: buffer[..<lf], as: UTF8.self)
                    buffer.removeSubrange(...lf)
                    if line.hasPrefix("committed "), let n = Int64(line.dropFirst(10)) {
                        reported = n
                        seen += 1
                    }
                }
            }
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            buffer += pipe.fileHandleForReading.readDataToEndOfFile()
            for line in String(decoding: buffer, as: UTF8.self).split(separator: "\n")
            where line.hasPrefix("committed ") {
                reported = max(reported, Int64(line.dropFirst(10)) ?? 0)
            }
            do {
                let n = try CrashWorkload.check(file: file, reported: reported)
                output.out(
                    "trial \(trial): \(sync), killed after \(reported) reported, file holds \(n): ok"
                )
            } catch {
                failures += 1
                output.out(
                    "trial \(trial): \(sync), killed after \(reported) reported: FAIL \(error)")
            }
        }
        output.out("\(trials - failures) of \(trials) trials passed")
        if failures > 0 { exit(1) }
    }
}
