//! Without `std`, the `f64` functions std provides and `core` lacks, from
//! `libm`, under std's names: a module that uses them imports
//! `F64Math` when `std` is off (with `std`, and wherever a dependency
//! links std, std's inherent methods take precedence).

/// `log2`, `exp2`, `ln_1p`, `powi`, `powf`, `floor` as `f64` methods.
#[allow(dead_code)] // unused wherever a dependency links std
pub(crate) trait F64Math {
    fn log2(self) -> f64;
    fn exp2(self) -> f64;
    fn ln_1p(self) -> f64;
    fn powi(self, n: i32) -> f64;
    fn powf(self, y: f64) -> f64;
    fn floor(self) -> f64;
}

impl F64Math for f64 {
    fn log2(self) -> f64 {
        libm::log2(self)
    }
    fn exp2(self) -> f64 {
        libm::exp2(self)
    }
    fn ln_1p(self) -> f64 {
        libm::log1p(self)
    }
    fn powi(self, n: i32) -> f64 {
        libm::pow(self, f64::from(n))
    }
    fn powf(self, y: f64) -> f64 {
        libm::pow(self, y)
    }
    fn floor(self) -> f64 {
        libm::floor(self)
    }
}

#[cfg(test)]
mod tests {
    use super::F64Math;

    /// Called through the trait, so that `libm` is what is tested even
    /// where std's methods are linked (the test harness links std).
    #[test]
    fn agrees_with_exact_values() {
        assert_eq!(F64Math::log2(1024f64), 10.0);
        assert_eq!(F64Math::log2(2f64.powi(-1000)), -1000.0);
        assert_eq!(F64Math::exp2(-3f64), 0.125);
        assert_eq!(F64Math::ln_1p(0f64), 0.0);
        assert_eq!(F64Math::powi(2f64, -31), 1.0 / 2147483648.0);
        assert_eq!(F64Math::powi(3f64, 5), 243.0);
        assert_eq!(F64Math::powf(9f64, 0.5), 3.0);
        assert_eq!(F64Math::floor(-1.5f64), -2.0);
        assert_eq!(F64Math::floor(7.0f64), 7.0);
        // ln(1 + x) = x − x²/2 + O(x³) for small x.
        let x = 1.0 / 2147483648.0;
        let d = F64Math::ln_1p(x) - (x - x * x / 2.0);
        assert!(d < 1e-25 && d > -1e-25, "{d}");
    }
}
