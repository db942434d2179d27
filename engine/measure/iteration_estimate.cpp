#include "measure/iteration_estimate.hpp"

#include "measure/measurements.hpp"
#include "world/world.hpp"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <cstdio>
#include <limits>

namespace ndem {

double requiredIterations(double length, double width, double inertialNumber, double tolerance,
                          const IterationEstimateCoefficients& c) {
    assert(tolerance > 0.0 && width > 0.0 && length >= 0.0);
    // Eq. 41. GS spreads force through the network diffusively (Sec. 3.2.1), so the sweeps
    // grow with the length the weight is carried over; in a wide enough system arches over the
    // walls carry the weight below a depth of about w/c2 (as in Janssen's saturation) and the
    // growth stops.
    const double span =
        width >= kArchingWidth ? width * (1.0 - std::exp(-c.c2 * length / width)) : c.c2 * length;
    return c.c0 * (1.0 + c.c1 * inertialNumber) / tolerance * span;
}

double nonsmoothTimeStep(double tolerance, double diameter, double normalVelocity, double gravity) {
    // 1/h from each limit of Eq. 37; the larger rate (smaller step) wins.
    const double rate = std::max(normalVelocity / (tolerance * diameter),
                                 std::sqrt(gravity / (2.0 * tolerance * diameter)));
    return rate > 0.0 ? 1.0 / rate : std::numeric_limits<double>::infinity();
}

double nonsmoothCostRatio(const CostModelInputs& in, const IterationEstimateCoefficients& c) {
    const double smoothStep = std::sqrt(in.mass / in.stiffness);  // Eq. 36
    const double nonsmoothStep =
        nonsmoothTimeStep(in.tolerance, in.diameter, in.normalVelocity, in.gravity);
    const double sweeps =
        requiredIterations(in.length, in.width, in.inertialNumber, in.tolerance, c);
    // Eq. 35–38: τ = Ω/h τ_real with Ω_SDEM = K_SDEM N_p and Ω_NDEM = K_GS N_it N_c.
    return smoothStep / nonsmoothStep * in.solverCostRatio * in.contactsPerParticle * sweeps;
}

namespace {

/// Reports Eq. 41 for the system a scene describes, beside the sweeps the scene runs.
class IterationEstimateMeasurement final : public Measurement {
  public:
    IterationEstimateMeasurement(double length, double width, double inertialNumber,
                                 double tolerance, int sceneIterations)
        : m_length(length),
          m_width(width),
          m_inertialNumber(inertialNumber),
          m_tolerance(tolerance),
          m_sceneIterations(sceneIterations) {}
    std::string name() const override { return "iterationEstimate"; }
    void sample(const World&, const StepStats&) override {}
    MeasurementResult result() const override {
        MeasurementResult r;
        r.name = "iterationEstimate";
        const double n = requiredIterations(m_length, m_width, m_inertialNumber, m_tolerance);
        r.scalars["requiredIterations"] = n;
        r.scalars["length"] = m_length;
        r.scalars["width"] = m_width;
        r.scalars["inertialNumber"] = m_inertialNumber;
        r.scalars["tolerance"] = m_tolerance;
        r.scalars["sceneIterations"] = m_sceneIterations;
        char line[200];
        std::snprintf(line, sizeof line,
                      "servin-2014 Eq. 41: about %.0f sweeps for eps = %.3g (l = %.4g d, "
                      "w = %.4g d, I = %.3g); the scene runs %d",
                      n, m_tolerance, m_length, m_width, m_inertialNumber, m_sceneIterations);
        r.headline = line;
        return r;
    }
    /// Eq. 41 of the configuration: nothing is sampled, nothing to keep.
    void archive(StateArchive&) override {}

  private:
    double m_length, m_width, m_inertialNumber, m_tolerance;
    int m_sceneIterations;
};

}  // namespace

extern const MeasurementFactory kIterationEstimateMeasurement{
    "iterationEstimate",
    "PGS sweeps needed for overlap error eps from servin-2014 Eq. 41, beside the scene's own",
    {{"length", MeasurementParameter::Number, "extent along gravity (particle diameters)"},
     {"width", MeasurementParameter::Number, "width of the cross-section (particle diameters)"},
     {"inertialNumber", MeasurementParameter::Number, "inertial number I (default 0, static)"},
     {"tolerance", MeasurementParameter::Number, "overlap error tolerance eps (default 0.05)"}},
    [](const MeasurementRequest& r, const World& w) -> Expected<std::unique_ptr<Measurement>> {
        const double nan = std::numeric_limits<double>::quiet_NaN();
        const double length = r.number("length", nan), width = r.number("width", nan);
        const double inertial = r.number("inertialNumber", 0.0);
        const double tolerance = r.number("tolerance", 0.05);
        if (!(length >= 0.0) || !(width > 0.0))
            return Error{
                "measurement 'iterationEstimate': needs 'length' >= 0 and 'width' > 0 "
                "(in particle diameters)"};
        if (!(inertial >= 0.0))
            return Error{"measurement 'iterationEstimate': 'inertialNumber' must be >= 0"};
        if (!(tolerance > 0.0))
            return Error{"measurement 'iterationEstimate': 'tolerance' must be > 0"};
        return std::unique_ptr<Measurement>(new IterationEstimateMeasurement(
            length, width, inertial, tolerance, w.settings().iterations));
    }};

}  // namespace ndem
