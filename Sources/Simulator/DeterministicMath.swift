/// `ln` and `exp` written with the four IEEE-754 operations only, in a fixed order, so that a
/// seed gives the same delays on every machine (libm's `log`/`exp` may differ in the last bit
/// between C libraries, and one bit is enough to change a rounded millisecond).
enum DeterministicMath {
    static let ln2 = 0.693_147_180_559_945_309_417_232_121_458

    /// The natural logarithm of a positive finite `x` (relative error below 1e-15).
    static func ln(_ x: Double) -> Double {
        precondition(x > 0 && x.isFinite, "ln needs a positive finite number")
        // x = m · 2^e with m in [0.75, 1.5): exact, from the bits.
        var exponent = Int(x.exponent)
        var mantissa = x.significand // in [1, 2)
        if mantissa >= 1.5 {
            mantissa /= 2
            exponent += 1
        }
        // ln(m) = 2 atanh(t), t = (m − 1)/(m + 1), |t| ≤ 0.2: the series converges fast.
        let t = (mantissa - 1) / (mantissa + 1)
        let t2 = t * t
        var term = t
        var sum = 0.0
        var k = 1.0
        for _ in 0..<14 {
            sum += term / k
            term *= t2
            k += 2
        }
        return 2 * sum + Double(exponent) * ln2
    }

    /// e^x for |x| < 700.
    static func exp(_ x: Double) -> Double {
        precondition(x.isFinite && abs(x) < 700, "exp argument out of range")
        // x = k ln2 + r, |r| ≤ ln2/2; e^r by Taylor series; 2^k exact.
        let k = (x / ln2).rounded()
        let r = x - k * ln2
        var term = 1.0
        var sum = 1.0
        for n in 1...20 {
            term *= r / Double(n)
            sum += term
        }
        return sum * Double(sign: .plus, exponent: Int(k), significand: 1)
    }
}

extension SeededRandom {
    /// A uniform double in (0, 1): 53 random bits, never 0.
    mutating func unitOpen() -> Double {
        (Double(next() >> 11) + 0.5) * (1.0 / 9_007_199_254_740_992.0)
    }

    /// An approximately standard normal value: the sum of four uniforms, centred and scaled
    /// (Irwin–Hall; tails cut at ±3.46 σ, which the delays clamp anyway).
    mutating func standardNormal() -> Double {
        let sum = unitOpen() + unitOpen() + unitOpen() + unitOpen()
        return (sum - 2) * 1.732_050_807_568_877_2
    }

    /// An exponential value with the given mean.
    mutating func exponential(mean: Double) -> Double {
        -mean * DeterministicMath.ln(unitOpen())
    }
}
