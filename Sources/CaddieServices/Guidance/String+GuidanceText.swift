/// Small text helpers for callouts and error messages, written without Foundation.
extension String {
    /// The string without leading and trailing white space and line breaks (no Foundation needed).
    func trimmingWhitespace() -> String {
        var scalars = Substring(self)
        while let first = scalars.first, first.isWhitespace { scalars.removeFirst() }
        while let last = scalars.last, last.isWhitespace { scalars.removeLast() }
        return String(scalars)
    }

    /// The string cut to 40 characters on one line, for quoting document text in an error message.
    var clipped: String {
        GuidanceError.oneLine(self)
    }
}
