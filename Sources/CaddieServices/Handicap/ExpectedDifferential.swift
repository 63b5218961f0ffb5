import Foundation

extension Handicap {
    /// The expected Score Differential of a player over holes not played (2024 revision, Rules 3.2 and 5.1b).
    ///
    /// The USGA and The R&A do not publish how the expected score is calculated ("not shared by the USGA", England
    /// Golf), so a differential built with one is unofficial. This is a pluggable function so that an association's
    /// value can replace the built-in approximation; every result that used it says so.
    public struct ExpectedDifferential: Sendable {
        /// A short name for the model, shown in the working of a calculation.
        public let name: String
        private let model: @Sendable (_ handicapIndex: Double, _ holes: Int) -> Double

        /// A model computing the expected differential over `holes` holes for a Handicap Index.
        public init(name: String, model: @escaping @Sendable (_ handicapIndex: Double, _ holes: Int) -> Double) {
            self.name = name
            self.model = model
        }

        /// The expected Score Differential over `holes` holes for a player of `handicapIndex`.
        public func callAsFunction(handicapIndex: Double, holes: Int) -> Double {
            model(handicapIndex, holes)
        }

        /// The built-in approximation: the Handicap Index plus 3.5 strokes, pro rata to the holes.
        ///
        /// The expected score is "the average Score Differential of a player with a given Handicap Index" (USGA);
        /// the index averages the best 8 of 20, and the USGA tells players to expect to score "generally 2-5 strokes
        /// higher" than their handicap (Local Guidance for Rule 6, target score). 3.5 is the middle of that range.
        /// [inferred] Replace it with an association's value where one is available.
        public static let approximation = ExpectedDifferential(name: "approximation: (index + 3.5) x holes / 18") {
            handicapIndex, holes in
            (handicapIndex + 3.5) * Double(holes) / 18
        }
    }
}
