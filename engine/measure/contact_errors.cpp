// The contact-level error metrics of servin-2014 Sec. 4.1 (Eq. 40): overlap error ε_c = δ/d
// over touching contacts, and for contacts in slide mode the slide error
// ε_sl = (|f_t| − μ|f_n|)/(μ|f_n|) and slide-direction error ε_dir = (θ_dir − π)/π.
#include "measure/measurement_state.hpp"
#include "measure/measurements.hpp"
#include "measure/sample_window.hpp"
#include "world/world.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numbers>

namespace ndem {

namespace {

/// Running mean and standard deviation of one sample's values.
struct Moments {
    double sum = 0.0, sumSquares = 0.0;
    long count = 0;

    void add(double x) {
        sum += x;
        sumSquares += x * x;
        ++count;
    }
    double mean() const { return count ? sum / count : 0.0; }
    double std() const {
        if (count == 0) return 0.0;
        const double m = mean();
        return std::sqrt(std::max(0.0, sumSquares / count - m * m));
    }
};

/// u = (v_B + ω_B × d_B) − (v_A + ω_A × d_A), the velocity of B relative to A at the contact
/// point after the step; a wall's part is its stored surface velocity at the point.
Vec3 relativeVelocity(const World& world, size_t i) {
    const ContactSet& c = world.contacts();
    const ParticleStore& p = world.particles();
    const Index a = c.bodyA[i];
    const Vec3 va = p.velocity[a] + p.angularVelocity[a].cross(c.leverA[i]);
    if (c.flags[i] & kWallContact) return c.wallVelocity[i] - va;
    const Index b = c.bodyB[i];
    return p.velocity[b] + p.angularVelocity[b].cross(c.leverB[i]) - va;
}

class ContactErrorsMeasurement final : public Measurement {
  public:
    ContactErrorsMeasurement(SampleWindow window, double slideThreshold)
        : m_window(window), m_slideThreshold(slideThreshold) {}
    std::string name() const override { return "contactErrors"; }

    void sample(const World& world, const StepStats& stats) override {
        const double h = world.settings().timeStep;
        if (!m_window.takes(stats, h)) return;
        const ContactSet& c = world.contacts();
        const ParticleStore& p = world.particles();
        const double g = world.gravity().norm();

        Moments overlap, slide, direction;
        double maxOverlap = 0.0;
        for (size_t i = 0; i < c.size(); ++i) {
            if (!(c.flags[i] & kTouching)) continue;
            const double d = c.diameter[i];
            const double e = c.overlap[i] / d;
            overlap.add(e);
            maxOverlap = std::max(maxOverlap, e);

            // Slide mode: slipping faster than u_thr = 0.01 √(g d/2) and loaded above
            // f_thr = 0.01 m g, so that resting contacts and the weakest links, whose
            // relative errors are noise, stay out (Sec. 4.1). Without gravity there is no
            // natural speed or force scale: the speed is a parameter and only f_n > 0 is asked.
            // m is the lighter particle of the pair: A is merely the smaller id, and a heavy
            // (e.g. kinematic) partner would otherwise filter out every contact it has.
            const double mu = world.materials().pair(c.materialA[i], c.materialB[i]).friction;
            if (mu <= 0.0) continue;  // ε_sl divides by μ|f_n|: undefined without friction
            const double fn = std::abs(c.normalImpulse[i]) / h;
            const double mass = (c.flags[i] & kWallContact)
                                    ? p.mass[c.bodyA[i]]
                                    : std::min(p.mass[c.bodyA[i]], p.mass[c.bodyB[i]]);
            const double forceThreshold = g > 0.0 ? 0.01 * mass * g : 0.0;
            if (!(fn > forceThreshold)) continue;
            const Vec3& n = c.normal[i];
            const Vec3 u = relativeVelocity(world, i);
            const Vec3 ut = u - u.dot(n) * n;
            const double speedThreshold =
                g > 0.0 ? 0.01 * std::sqrt(0.5 * g * d) : m_slideThreshold;
            const double slip = ut.norm();
            if (slip < speedThreshold) continue;

            // f_t is the friction force on B; Coulomb wants it opposite B's slip, θ_dir = π.
            const Vec3 ft = c.frictionImpulse[i] / h;
            const double ftNorm = ft.norm();
            slide.add((ftNorm - mu * fn) / (mu * fn));
            if (ftNorm > 0.0) {
                const double cosine = std::clamp(ut.dot(ft) / (slip * ftNorm), -1.0, 1.0);
                direction.add((std::acos(cosine) - std::numbers::pi) / std::numbers::pi);
            }
        }

        // Each sample is summarised on its own and the summaries are averaged over samples,
        // so a crowded instant does not outweigh a sparse one.
        ++m_samples;
        m_contacts += overlap.count;
        m_sliding += slide.count;
        if (overlap.count) {
            ++m_overlapSamples;
            m_overlapMean += overlap.mean();
            m_overlapStd += overlap.std();
            m_overlapMax = std::max(m_overlapMax, maxOverlap);
        }
        if (slide.count) {
            ++m_slideSamples;
            m_slideMean += slide.mean();
            m_slideStd += slide.std();
        }
        if (direction.count) {
            ++m_directionSamples;
            m_directionMean += direction.mean();
            m_directionStd += direction.std();
        }
        // A sample without sliding contacts has no slide error; 0 with slidingFraction 0
        // says so without putting NaN into the report.
        m_series["t"].push_back(stats.time);
        m_series["meanOverlapError"].push_back(overlap.mean());
        m_series["meanSlideError"].push_back(slide.mean());
        m_series["meanSlideDirectionError"].push_back(direction.mean());
        m_series["slidingFraction"].push_back(
            overlap.count ? static_cast<double>(slide.count) / overlap.count : 0.0);
    }

    MeasurementResult result() const override {
        MeasurementResult r;
        r.name = "contactErrors";
        r.series = m_series;
        auto average = [](double sum, long n) { return n ? sum / n : 0.0; };
        r.scalars["samples"] = static_cast<double>(m_samples);
        r.scalars["contacts"] = average(static_cast<double>(m_contacts), m_samples);
        r.scalars["slidingContacts"] = average(static_cast<double>(m_sliding), m_samples);
        r.scalars["meanOverlapError"] = average(m_overlapMean, m_overlapSamples);
        r.scalars["overlapErrorStd"] = average(m_overlapStd, m_overlapSamples);
        r.scalars["maxOverlapError"] = m_overlapMax;
        r.scalars["meanSlideError"] = average(m_slideMean, m_slideSamples);
        r.scalars["slideErrorStd"] = average(m_slideStd, m_slideSamples);
        r.scalars["meanSlideDirectionError"] = average(m_directionMean, m_directionSamples);
        r.scalars["slideDirectionErrorStd"] = average(m_directionStd, m_directionSamples);
        char line[200];
        if (m_samples == 0)
            std::snprintf(line, sizeof line, "no step fell inside the sampling window");
        else if (m_slideSamples == 0)
            std::snprintf(line, sizeof line,
                          "overlap error <eps_c> = %.3g (max %.3g); no sliding contacts",
                          r.scalars["meanOverlapError"], m_overlapMax);
        else
            std::snprintf(line, sizeof line,
                          "overlap error <eps_c> = %.3g (max %.3g), slide error %.3g, "
                          "slide-direction error %.3g over %.3g sliding contacts",
                          r.scalars["meanOverlapError"], m_overlapMax, r.scalars["meanSlideError"],
                          r.scalars["meanSlideDirectionError"], r.scalars["slidingContacts"]);
        r.headline = line;
        return r;
    }

    void archive(StateArchive& a) override {
        a.field("samples", m_samples);
        a.field("contacts", m_contacts);
        a.field("sliding", m_sliding);
        a.field("overlapSamples", m_overlapSamples);
        a.field("slideSamples", m_slideSamples);
        a.field("directionSamples", m_directionSamples);
        a.field("overlapMean", m_overlapMean);
        a.field("overlapStd", m_overlapStd);
        a.field("overlapMax", m_overlapMax);
        a.field("slideMean", m_slideMean);
        a.field("slideStd", m_slideStd);
        a.field("directionMean", m_directionMean);
        a.field("directionStd", m_directionStd);
        archiveTable(a, "series", m_series);
    }

  private:
    SampleWindow m_window;
    double m_slideThreshold;  ///< u_thr when g = 0 (m/s)
    long m_samples = 0, m_contacts = 0, m_sliding = 0;
    long m_overlapSamples = 0, m_slideSamples = 0, m_directionSamples = 0;
    double m_overlapMean = 0.0, m_overlapStd = 0.0, m_overlapMax = 0.0;
    double m_slideMean = 0.0, m_slideStd = 0.0;
    double m_directionMean = 0.0, m_directionStd = 0.0;
    Table m_series;
};

}  // namespace

extern const MeasurementFactory kContactErrorsMeasurement{
    "contactErrors",
    "overlap error eps_c = delta/d, slide and slide-direction errors of sliding contacts: mean, "
    "std, max, averaged over samples; series over time (servin-2014 Sec. 4.1)",
    {kWindowEvery,
     kWindowFrom,
     kWindowUntil,
     {"slideThreshold", MeasurementParameter::Number,
      "slip speed of slide mode without gravity (m/s, default 1e-3)"}},
    [](const MeasurementRequest& r, const World&) -> Expected<std::unique_ptr<Measurement>> {
        const SampleWindow window = SampleWindow::fromRequest(r);
        if (window.until < window.from)
            return Error{"measurement 'contactErrors': 'until' is before 'from'"};
        const double threshold = r.number("slideThreshold", 1e-3);
        if (!(threshold > 0.0))
            return Error{"measurement 'contactErrors': 'slideThreshold' must be > 0 (m/s)"};
        return std::unique_ptr<Measurement>(new ContactErrorsMeasurement(window, threshold));
    }};

}  // namespace ndem
