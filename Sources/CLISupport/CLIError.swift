/// A command-line failure and its exit code.
package enum CLIError: Error, CustomStringConvertible, Equatable {
    /// Bad usage (unknown command or flag, missing or extra arguments): exit 64, with usage.
    case usage(String)
    /// Any other failure: exit 1, one line on stderr.
    case failure(String)

    /// The process exit code: 64 for usage, 1 for failures.
    package var exitCode: Int32 {
        switch self {
        case .usage: 64
        case .failure: 1
        }
    }

    /// The message.
    package var description: String {
        switch self {
        case .usage(let m), .failure(let m): m
        }
    }
}
