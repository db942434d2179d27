// fitJanssen recovers the parameters of curves built from known p_sat and λ.
#include "measure/janssen_fit.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace ndem {
namespace {

/// Twenty strips 5 mm apart down to 0.1 m, as in a 20-diameter silo of 5 mm grains.
std::vector<double> depths() {
    std::vector<double> d;
    for (int k = 0; k < 20; ++k)
        d.push_back(0.0025 + 0.005 * k);
    return d;
}

TEST(JanssenFit, RecoversSaturationAndLengthFromAnExactCurveWithin1Percent) {
    const double pSat = 850.0, lambda = 0.03;  // λ = 0.3 × the deepest strip: saturates
    std::vector<double> pressure;
    for (double d : depths())
        pressure.push_back(pSat * (1.0 - std::exp(-d / lambda)));
    const JanssenFit fit = fitJanssen(depths(), pressure);
    EXPECT_NEAR(fit.pSat, pSat, 0.01 * pSat);
    EXPECT_NEAR(fit.lambda, lambda, 0.01 * lambda);
    EXPECT_LT(fit.residualRms, 1e-6 * pSat);
}

TEST(JanssenFit, RecoversParametersWithin5PercentUnder3PercentNoise) {
    const double pSat = 1200.0, lambda = 0.045;
    std::vector<double> pressure;
    int k = 0;
    for (double d : depths()) {
        // Deterministic ±3 %: a fixed pattern of signs and sizes, no generator to drift.
        const double noise = 0.03 * std::sin(2.39996 * ++k);
        pressure.push_back(pSat * (1.0 - std::exp(-d / lambda)) * (1.0 + noise));
    }
    const JanssenFit fit = fitJanssen(depths(), pressure);
    EXPECT_NEAR(fit.pSat, pSat, 0.05 * pSat);
    EXPECT_NEAR(fit.lambda, lambda, 0.05 * lambda);
    EXPECT_GT(fit.residualRms, 0.002 * pSat);  // the noise is there, the fit does not hide it
    EXPECT_LT(fit.residualRms, 0.03 * pSat);
}

TEST(JanssenFit, LinearHydrostaticProfileGivesLengthFarBeyondTheFill) {
    // A fluid: p = ρ g D, no saturation. The fit must say λ ≫ H and keep the slope p_sat/λ.
    const double slope = 2500.0 * 0.6 * 9.81;  // ρ_b g (Pa/m)
    std::vector<double> pressure;
    for (double d : depths())
        pressure.push_back(slope * d);
    const JanssenFit fit = fitJanssen(depths(), pressure);
    const double fill = depths().back();
    EXPECT_GT(fit.lambda, 100.0 * fill);
    EXPECT_NEAR(fit.pSat / fit.lambda, slope, 0.01 * slope);
    EXPECT_LT(fit.residualRms, 0.01 * slope * fill);
}

TEST(JanssenFit, IgnoresPointsAboveTheSurfaceAndReturnsZerosWithoutData) {
    std::vector<double> depth = depths(), pressure;
    for (double d : depth)
        pressure.push_back(500.0 * (1.0 - std::exp(-d / 0.02)));
    depth.push_back(-0.01);  // a strip above the fill, with a pressure that fits nothing
    pressure.push_back(1e6);
    const JanssenFit fit = fitJanssen(depth, pressure);
    EXPECT_NEAR(fit.pSat, 500.0, 5.0);
    EXPECT_NEAR(fit.lambda, 0.02, 2e-4);
    const JanssenFit none = fitJanssen({-1.0, 0.0}, {3.0, 4.0});
    EXPECT_EQ(none.pSat, 0.0);
    EXPECT_EQ(none.lambda, 0.0);
}

}  // namespace
}  // namespace ndem
