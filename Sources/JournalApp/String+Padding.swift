extension String {
    /// Pads with spaces to `width` characters (never truncates).
    package func padding(_ width: Int) -> String {
        let count = self.count
        return count >= width ? self : self + String(repeating: " ", count: width - count)
    }

    /// Pads on the left with spaces to `width` characters (never truncates).
    package func leftPadding(_ width: Int) -> String {
        let count = self.count
        return count >= width ? self : String(repeating: " ", count: width - count) + self
    }
}
