/// A command's exit status, as documented for every CLI of the project.
package enum ExitCode: Int32, Sendable {
    /// 0: the command did what it was asked.
    case success = 0
    /// 1: the command ran and failed (a damaged file, an I/O error, a check that found problems).
    case failure = 1
    /// 64: the command line was wrong (unknown command or option, missing argument); the
    /// `EX_USAGE` of `sysexits.h`.
    case usage = 64
}

/// A mistake in the command line: printed with a pointer to `--help`, exit status 64.
package struct UsageError: Error, CustomStringConvertible, Sendable {
    /// What is wrong, e.g. `unknown option '--jsn'`.
    package let message: String

    /// Creates a usage error.
    package init(_ message: String) { self.message = message }

    /// The message.
    package var description: String { message }
}
