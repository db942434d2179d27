// Convergence of the PGS on a real step of the simulation: residual and multiplier error per
// sweep (wang-servin-berglund Eq. 13, Fig. 4, 7, 8), from World's solver probe.
#include "measure/measurements.hpp"
#include "world/world.hpp"

#include <cmath>
#include <cstdio>

namespace ndem {

namespace {

/// The probe as captured: the world's own probe is not in its state, as a probe runs within
/// the step that asks for it.
void archiveProbe(StateArchive& a, SolverProbe& p) {
    a.field("referenceIterations", p.referenceIterations);
    a.field("iterations", p.iterations);
    a.field("requested", p.requested);
    a.field("done", p.done);
    a.field("time", p.time);
    a.field("residual", p.residual);
    a.field("normalResidual", p.normalResidual);
    a.field("multiplierError", p.multiplierError);
}

class SolverConvergence final : public Measurement {
  public:
    SolverConvergence(double at, int reference, int iterations)
        : m_at(at), m_reference(reference), m_iterations(iterations) {}
    std::string name() const override { return "solverConvergence"; }

    void prepare(World& world) override {
        // The probe runs inside the next step: ask for it on the step that starts at `at`.
        if (!m_requested && world.time() + 0.5 * world.settings().timeStep >= m_at) {
            world.requestSolverProbe(m_reference, m_iterations);
            m_requested = true;
        }
    }
    void sample(const World& world, const StepStats&) override {
        if (m_requested && !m_captured && world.solverProbe().done) {
            m_probe = world.solverProbe();
            m_captured = true;
        }
    }
    MeasurementResult result() const override {
        MeasurementResult r;
        r.name = "solverConvergence";
        if (!m_captured) {
            r.headline = "the probed step was not reached (or the mode is smooth)";
            return r;
        }
        Table t;
        for (size_t k = 0; k < m_probe.multiplierError.size(); ++k) {
            t["iteration"].push_back(static_cast<double>(k));
            t["residual"].push_back(m_probe.residual[k]);
            t["normalResidual"].push_back(m_probe.normalResidual[k]);
            t["multiplierError"].push_back(m_probe.multiplierError[k]);
        }
        r.tables["convergence"] = t;
        r.scalars["time"] = m_probe.time;
        r.scalars["referenceIterations"] = m_probe.referenceIterations;
        r.scalars["initialMultiplierError"] = m_probe.multiplierError.front();
        for (int k : {10, 50, 100, 200})
            if (k < static_cast<int>(m_probe.multiplierError.size()))
                r.scalars["multiplierErrorAt" + std::to_string(k)] = m_probe.multiplierError[k];
        double sweepsTo1Percent = -1.0;
        for (size_t k = 0; k < m_probe.multiplierError.size(); ++k)
            if (m_probe.multiplierError[k] < 0.01) {
                sweepsTo1Percent = static_cast<double>(k);
                break;
            }
        r.scalars["sweepsToOnePercent"] = sweepsTo1Percent;
        char line[200];
        std::snprintf(
            line, sizeof line,
            "at t = %.3g s: multiplier error %.3g initially, %.3g after 10 sweeps, "
            "below 1 %% after %s sweeps",
            m_probe.time, m_probe.multiplierError.front(),
            m_probe.multiplierError.size() > 10 ? m_probe.multiplierError[10] : NAN,
            sweepsTo1Percent < 0 ? "more than all" : std::to_string(int(sweepsTo1Percent)).c_str());
        r.headline = line;
        return r;
    }
    void archive(StateArchive& a) override {
        a.field("requested", m_requested);
        a.field("captured", m_captured);
        const auto scope = a.scope("probe");
        archiveProbe(a, m_probe);
    }

  private:
    double m_at;
    int m_reference, m_iterations;
    bool m_requested = false, m_captured = false;
    SolverProbe m_probe;
};

}  // namespace

extern const MeasurementFactory kSolverConvergenceMeasurement{
    "solverConvergence",
    "PGS residual and multiplier error per sweep on the step at time `at` "
    "(wang-servin-berglund Eq. 13)",
    {{"at", MeasurementParameter::Number, "simulated time of the probed step (s, default 0)"},
     {"reference", MeasurementParameter::Whole, "sweeps of the reference solve (default 500)"},
     {"iterations", MeasurementParameter::Whole, "sweeps recorded (default: reference)"}},
    [](const MeasurementRequest& r, const World&) -> Expected<std::unique_ptr<Measurement>> {
        const int reference = static_cast<int>(r.number("reference", 500.0));
        const int iterations = static_cast<int>(r.number("iterations", reference));
        if (reference < 1 || iterations < 1)
            return Error{"measurement 'solverConvergence': reference and iterations must be >= 1"};
        return std::unique_ptr<Measurement>(
            new SolverConvergence(r.number("at", 0.0), reference, iterations));
    }};

}  // namespace ndem
