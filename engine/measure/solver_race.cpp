// Which solver wins on a real step: the step at time `at` is solved again from its own input by
// the PGS from a cold start, by the PGS from the step's warm start, and by the interior-point
// method (krabbenhoft-2012), each only as far as it must go for the normal impulses to come
// within `target` of the exact answer of the law it solves (load-weighted); the sweeps or
// Newton steps and the wall time that took. The PGS solves Coulomb's law, whose exact answer is
// taken to Siconos' error 10⁻⁹; the interior point the associated rule, to round-off. With
// `nullSpace`, Alart 2014's solvers race too, against Coulomb's answer: NLGS on W cold and with
// memory, NLKerGS-P (linear and elastic prediction) and NLGS-Jac, each watched after every
// sweep (the null space is factored once a solve, as a step factors it).
#include "measure/measurement_state.hpp"
#include "measure/measurements.hpp"
#include "solve/convex/coulomb_reference.hpp"
#include "solve/convex/interior_point.hpp"
#include "solve/convex/interior_point_settings.hpp"
#include "solve/method/solver_registry.hpp"
#include "solve/nscd/nscd_settings.hpp"
#include "solve/rows/contact_problem.hpp"
#include "world/world.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <limits>

namespace ndem {

namespace {

using Clock = std::chrono::steady_clock;

/// Siconos' error measure the exact answer must meet.
constexpr double kExact = 1e-8;

double secondsSince(Clock::time_point start) {
    return std::chrono::duration<double>(Clock::now() - start).count();
}

/// Σ|λ_n − λ*_n| / Σ λ*_n: the error of the normal impulses weighted by the load, as a stress
/// measure weighs them (a mean of each contact's relative error is dominated by the packing's
/// nearly unloaded contacts, whose share the compliance alone decides).
class NormalError {
  public:
    NormalError(const ContactProblem& p, const Eigen::VectorXd& exact) : m_p(p), m_exact(exact) {
        for (int c = 0; c < p.contacts(); ++c)
            m_total += std::abs(exact[p.offset[static_cast<size_t>(c)]]);
    }
    double ofVector(const Eigen::VectorXd& lambda) const {
        return sum([&](int c) { return lambda[m_p.offset[static_cast<size_t>(c)]]; });
    }
    double ofRows(const std::vector<SolverContact>& rows) const {
        return sum([&](int c) {
            return rows[static_cast<size_t>(m_p.contactRow[static_cast<size_t>(c)])].lambda[0];
        });
    }

  private:
    template <class F>
    double sum(F normal) const {
        if (!(m_total > 0.0)) return 0.0;
        double s = 0.0;
        for (int c = 0; c < m_p.contacts(); ++c)
            s += std::abs(normal(c) - m_exact[m_p.offset[static_cast<size_t>(c)]]);
        return s / m_total;
    }
    const ContactProblem& m_p;
    const Eigen::VectorXd& m_exact;
    double m_total = 0.0;
};

/// What a solve leaves of the overlaps: each touching contact's δ − h u_n at the step's end
/// (u_n the normal velocity of its bodies after the solve, separating positive), over d: the
/// largest and the mean over the contacts that still overlap.
struct Overlap {
    double max = 0.0, mean = 0.0;
};
Overlap overlapAfter(const CapturedStep& step, const std::vector<SolverContact>& rows,
                     const std::vector<SolverBody>& bodies, double h) {
    Overlap o;
    int n = 0;
    for (const SolverContact& r : rows) {
        if (r.contact >= step.overlaps.size() || r.contact >= step.diameters.size()) continue;
        const SolverBody &a = bodies[static_cast<size_t>(r.a)],
                         &b = bodies[static_cast<size_t>(r.b)];
        const double un = r.n.dot(b.v + b.w.cross(r.leverB) - a.v - a.w.cross(r.leverA));
        const double end = (step.overlaps[r.contact] - h * un) / step.diameters[r.contact];
        if (!(end > 0.0)) continue;
        o.max = std::max(o.max, end);
        o.mean += end;
        ++n;
    }
    if (n) o.mean /= n;
    return o;
}

/// Orders the table's rows by one column.
void sortBy(Table& t, const std::string& key) {
    std::vector<size_t> order(t[key].size());
    for (size_t i = 0; i < order.size(); ++i)
        order[i] = i;
    std::sort(order.begin(), order.end(),
              [&](size_t a, size_t b) { return t[key][a] < t[key][b]; });
    for (auto& [name, column] : t) {
        std::vector<double> sorted;
        for (size_t i : order)
            sorted.push_back(column[i]);
        column = std::move(sorted);
    }
}

class SolverRace final : public Measurement {
  public:
    SolverRace(double at, double target, int maxSweeps, bool nullSpace, int maxNlgsSweeps,
               int maxNullSpaceSweeps)
        : m_at(at),
          m_target(target),
          m_maxSweeps(maxSweeps),
          m_maxNlgsSweeps(maxNlgsSweeps),
          m_maxNullSpaceSweeps(maxNullSpaceSweeps),
          m_nullSpace(nullSpace) {}
    std::string name() const override { return "solverRace"; }

    void prepare(World& world) override {
        if (m_done) return;
        if (std::optional<CapturedStep> step = world.takeCapturedStep()) {
            race(*step, world.settings().dimension);
            m_done = true;
        } else if (!m_requested && world.time() + 0.5 * world.settings().timeStep >= m_at) {
            world.requestCapturedStep();
            m_requested = true;
        }
    }
    void sample(const World&, const StepStats&) override {}
    MeasurementResult result() const override {
        if (m_done) return m_result;
        MeasurementResult r;
        r.name = "solverRace";
        r.headline = "the raced step was not reached (or the mode is smooth)";
        return r;
    }
    void archive(StateArchive& a) override {
        a.field("requested", m_requested);
        a.field("done", m_done);
        archiveResult(a, "result", m_result);
    }

  private:
    struct Finish {
        int count = -1;  ///< sweeps or Newton steps to the target; −1: not within the cap
        double seconds = std::nan("");
        Overlap overlap;  ///< what its answer leaves (at the target, or at the cap)
    };

    /// The PGS from `rows`/`bodies`, checked on a ladder of sweep counts (×√2), then timed in
    /// one solve of the first count that reached the target.
    Finish pgs(const CapturedStep& step, const std::vector<SolverContact>& rows0,
               const std::vector<SolverBody>& bodies0, const NormalError& error, Table& curve) {
        std::vector<SolverContact> rows = rows0;
        std::vector<SolverBody> bodies = bodies0;
        // The multipliers live in the rows: a solve of k more sweeps goes on from the last.
        const SolverInfo& method = *findSolver("pgs");
        std::unique_ptr<ContactSolver> solver = method.make();
        auto sweep = [&](ContactSolver& s, int sweeps) {
            StepProblem problem(rows, bodies, step.settings.dimension);
            s.solve(problem, step.controls(sweeps));
        };
        const double h = step.settings.timeStep;
        Finish f;
        int done = 0;
        curve["sweeps"].push_back(0);
        curve["error"].push_back(error.ofRows(rows));
        for (double next = 1.0; done < m_maxSweeps; next *= std::sqrt(2.0)) {
            const int to = std::min(m_maxSweeps, std::max(done + 1, static_cast<int>(next)));
            sweep(*solver, to - done);
            done = to;
            const double e = error.ofRows(rows);
            curve["sweeps"].push_back(done);
            curve["error"].push_back(e);
            if (e <= m_target) {
                f.count = done;
                break;
            }
        }
        if (f.count < 0) {
            f.overlap = overlapAfter(step, rows, bodies, h);
            return f;
        }
        rows = rows0;
        bodies = bodies0;
        const std::unique_ptr<ContactSolver> timed = method.make();
        const Clock::time_point start = Clock::now();
        sweep(*timed, f.count);
        f.seconds = secondsSince(start);
        f.overlap = overlapAfter(step, rows, bodies, h);
        return f;
    }

    /// One of Alart 2014's solvers (NLGS on W, NLKerGS-P, NLGS-Jac) from `rows0`, watched
    /// after each sweep and stopped there once within the target: its sweeps and the wall time
    /// of that one solve, null space and prediction included (the watch's own cost, one pass
    /// over the contacts a sweep, too). `best`: the least error any sweep reached.
    Finish nlgsFamily(const CapturedStep& step, const char* method, Prediction prediction, int cap,
                      const std::vector<SolverContact>& rows0,
                      const std::vector<SolverBody>& bodies0, const NormalError& error,
                      Table& curve, double& best) {
        std::vector<SolverContact> rows = rows0;
        std::vector<SolverBody> bodies = bodies0;
        StepSettings settings = step.settings;
        settings.solverBlocks.edit<NullSpaceSettings>().prediction = prediction;
        settings.solverBlocks.edit<NlgsSettings>().relativeTolerance = 0.0;
        SolveControls o = step.controls(cap);
        o.blocks = &settings.solverBlocks;
        Finish f;
        best = std::numeric_limits<double>::infinity();
        int k = 0;
        double nextRecord = 1.0;
        const SweepObserver watch = [&](const Eigen::VectorXd& lambda) {
            const double e = error.ofVector(lambda);
            best = std::min(best, e);
            const bool reached = e <= m_target;
            if (++k >= nextRecord || reached || k == cap) {
                curve["sweeps"].push_back(k);
                curve["error"].push_back(e);
                while (nextRecord <= k)
                    nextRecord *= std::sqrt(2.0);
            }
            if (reached) f.count = k;
            return reached;
        };
        o.sweepObserver = &watch;
        const std::unique_ptr<ContactSolver> solver = findSolver(method)->make();
        const Clock::time_point start = Clock::now();
        StepProblem problem(rows, bodies, step.settings.dimension);
        solver->solve(problem, o);
        if (f.count > 0) f.seconds = secondsSince(start);
        f.overlap = overlapAfter(step, rows, bodies, step.settings.timeStep);
        return f;
    }

    /// The interior point (associated rule) stopped after k Newton steps, the problem built
    /// from the rows as the engine builds it: the least k that reaches the target (bisection;
    /// its error falls with k once it nears the answer), timed.
    Finish interiorPoint(const CapturedStep& step, const NormalError& error, Table& curve,
                         int& converged) {
        // The associated rule, the interior point's own (its block's defaults).
        StepSettings settings = step.settings;
        settings.solverBlocks.edit<InteriorPointSettings>() = InteriorPointSettings{};
        const SolverInfo& method = *findSolver("interior-point");
        // The error after at most k Newton steps; `steps` gets the steps taken.
        // `overlap`, if given, gets what the answer leaves.
        auto solve = [&](int k, int& steps, double* seconds, Overlap* overlap = nullptr) {
            std::vector<SolverContact> rows = step.rows;
            std::vector<SolverBody> bodies = step.bodies;
            SolveControls o = step.controls(k);
            o.blocks = &settings.solverBlocks;
            const Clock::time_point start = Clock::now();
            StepProblem problem(rows, bodies, step.settings.dimension);
            steps = method.make()->solve(problem, o).iterations;
            if (seconds) *seconds = secondsSince(start);
            if (overlap) *overlap = overlapAfter(step, rows, bodies, step.settings.timeStep);
            return error.ofRows(rows);
        };
        constexpr int kCap = 100;
        Finish f;
        int steps = 0;
        const double full = solve(kCap, converged, nullptr, &f.overlap);
        if (!(full <= m_target)) return f;
        int lo = 0, hi = converged;  // error(hi) ≤ target
        while (hi - lo > 1) {
            const int mid = (lo + hi) / 2;
            const double e = solve(mid, steps, nullptr);
            curve["newtonSteps"].push_back(mid);
            curve["error"].push_back(e);
            (e <= m_target ? hi : lo) = mid;
        }
        curve["newtonSteps"].push_back(converged);
        curve["error"].push_back(full);
        sortBy(curve, "newtonSteps");
        f.count = hi;
        solve(hi, steps, &f.seconds, &f.overlap);
        return f;
    }

    /// Against the exact answer of its own law: the PGS Coulomb's, the interior point the
    /// associated rule's; `lawGap` says how far the two answers lie apart.
    void race(const CapturedStep& step, int dimension) {
        MeasurementResult& r = m_result;
        r.name = "solverRace";
        // Cold: no impulses, the bodies at v* (ContactProblem takes the warm start out of v*).
        const ContactProblem p =
            ContactProblem::fromRows(step.rows, step.bodies, ProblemForm{dimension, false, true});
        std::vector<SolverContact> coldRows = step.rows;
        std::vector<SolverBody> coldBodies = step.bodies;
        p.store(Eigen::VectorXd::Zero(p.rows()), coldRows, coldBodies);

        // The exact answer: the fixed point of cone programs, Gauss–Seidel on W, the Newton
        // method on Alart–Curnier, each from the one before (solve/convex/coulomb_reference.hpp).
        const LocalProblem local = p.local();
        CoulombReferenceOptions exactOptions;
        exactOptions.tolerance = 0.1 * kExact;
        exactOptions.threads = step.settings.threads;
        Eigen::VectorXd exact;
        const CoulombReferenceResult reference = solveCoulombReference(local, exact, exactOptions);
        const NormalError error(p, exact);
        // The interior point solves the associated rule: its own exact answer, and how far
        // that law's answer lies from Coulomb's on this step.
        InteriorPointSolver associatedSolver;
        InteriorPointOptions associatedOptions;
        associatedOptions.maxIterations = 200;
        associatedOptions.threads = step.settings.threads;
        Eigen::VectorXd associated;
        const InteriorPointResult associatedResult =
            associatedSolver.solve(local, associated, associatedOptions);
        const NormalError associatedError(p, associated);

        Table coldCurve, warmCurve, ipCurve;
        const Finish cold = pgs(step, coldRows, coldBodies, error, coldCurve);
        const Finish warm = pgs(step, step.rows, step.bodies, error, warmCurve);
        int converged = 0;
        const Finish ip = interiorPoint(step, associatedError, ipCurve, converged);

        r.scalars["time"] = step.time;
        r.scalars["contacts"] = p.contacts();
        r.scalars["associatedConverged"] = associatedResult.converged ? 1.0 : 0.0;
        r.scalars["lawGap"] = error.ofVector(associated);
        r.scalars["target"] = m_target;
        r.scalars["referenceConverged"] = reference.error <= kExact ? 1.0 : 0.0;
        r.scalars["referenceError"] = reference.error;
        r.scalars["referenceNewtonSteps"] = reference.interiorPointSteps;
        r.scalars["referenceSweeps"] = reference.sweeps;
        r.scalars["referenceAlartCurnierSteps"] = reference.alartCurnierSteps;
        r.scalars["threads"] = step.settings.threads;
        r.scalars["pgsColdSweeps"] = cold.count;
        r.scalars["pgsColdSeconds"] = cold.seconds;
        r.scalars["pgsWarmSweeps"] = warm.count;
        r.scalars["pgsWarmSeconds"] = warm.seconds;
        r.scalars["warmStartError"] = warmCurve["error"].front();
        r.scalars["pgsColdLastError"] = coldCurve["error"].back();
        r.scalars["pgsWarmLastError"] = warmCurve["error"].back();
        r.scalars["interiorPointNewtonSteps"] = ip.count;
        r.scalars["interiorPointSeconds"] = ip.seconds;
        r.scalars["interiorPointConvergedSteps"] = converged;
        // The overlaps each answer leaves at the step's end, beside its error.
        const Overlap before = overlapAfter(step, step.rows, step.bodies, 0.0);
        r.scalars["overlapBefore"] = before.max;
        for (const auto& [key, f] : {std::pair{"pgsCold", &cold}, std::pair{"pgsWarm", &warm},
                                     std::pair{"interiorPoint", &ip}}) {
            r.scalars[std::string(key) + "OverlapMax"] = f->overlap.max;
            r.scalars[std::string(key) + "OverlapMean"] = f->overlap.mean;
        }
        auto finish = [](const Finish& f, const char* unit) {
            char s[80];
            if (f.count < 0)
                std::snprintf(s, sizeof s, "not within the cap");
            else
                std::snprintf(s, sizeof s, "%d %s, %.3g s", f.count, unit, f.seconds);
            return std::string(s);
        };
        std::string alart;
        if (m_nullSpace) {
            // Alart 2014's solvers against Coulomb's exact answer, as the PGS: NLGS without
            // and with memory, then the null-space solvers with the linear prediction (the
            // default) and NLKerGS-P with the elastic one too.
            struct Entry {
                const char* key;
                const char* method;
                Prediction prediction;
                bool memory;
            };
            const Entry entries[] = {{"nlgsCold", "nlgs", Prediction::Linear, false},
                                     {"nlgsMemory", "nlgs", Prediction::Linear, true},
                                     {"nlkergsP", "nlkergs-p", Prediction::Linear, false},
                                     {"nlkergsPElastic", "nlkergs-p", Prediction::Elastic, false},
                                     {"nlgsJac", "nlgs-jac", Prediction::Linear, false}};
            for (const Entry& e : entries) {
                Table curve;
                double best = 0.0;
                const bool nlgs = std::string(e.method) == "nlgs";
                const Finish f = nlgsFamily(
                    step, e.method, e.prediction, nlgs ? m_maxNlgsSweeps : m_maxNullSpaceSweeps,
                    e.memory ? step.rows : coldRows, e.memory ? step.bodies : coldBodies, error,
                    curve, best);
                const std::string key = e.key;
                r.scalars[key + "Sweeps"] = f.count;
                r.scalars[key + "Seconds"] = f.seconds;
                r.scalars[key + "BestError"] = best;
                r.scalars[key + "OverlapMax"] = f.overlap.max;
                r.scalars[key + "OverlapMean"] = f.overlap.mean;
                r.tables[key] = curve;
                alart += "; " + key + " " + finish(f, "sweeps");
            }
        }
        r.tables["pgsCold"] = coldCurve;
        r.tables["pgsWarm"] = warmCurve;
        r.tables["interiorPoint"] = ipCurve;
        r.headline = "to " + std::to_string(m_target) + " of the normal impulses (" +
                     std::to_string(p.contacts()) + " contacts): PGS cold " +
                     finish(cold, "sweeps") + "; warm " + finish(warm, "sweeps") +
                     "; interior point " + finish(ip, "Newton steps") + alart;
    }

    double m_at, m_target;
    int m_maxSweeps, m_maxNlgsSweeps, m_maxNullSpaceSweeps;
    bool m_nullSpace;
    bool m_requested = false, m_done = false;
    MeasurementResult m_result;
};

}  // namespace

extern const MeasurementFactory kSolverRaceMeasurement{
    "solverRace",
    "the step at time `at` solved again by the PGS cold, the PGS warm started and the interior "
    "point (with nullSpace, Alart 2014's solvers too), each to `target` of the exact normal "
    "impulses: sweeps or Newton steps and wall time",
    {{"at", MeasurementParameter::Number, "simulated time of the raced step (s, default 0)"},
     {"target", MeasurementParameter::Number,
      "error of the normal impulses to reach, sum |l - l*| / sum l* (default 0.01)"},
     {"maxSweeps", MeasurementParameter::Whole, "the PGS gives up here (default 100000)"},
     {"nullSpace", MeasurementParameter::Whole,
      "1: race Alart 2014's solvers too, NLGS cold and with memory, NLKerGS-P and NLGS-Jac "
      "(default 0)"},
     {"maxNlgsSweeps", MeasurementParameter::Whole, "NLGS gives up here (default 20000)"},
     {"maxNullSpaceSweeps", MeasurementParameter::Whole,
      "NLKerGS-P and NLGS-Jac give up here (default 300)"}},
    [](const MeasurementRequest& r, const World& world) -> Expected<std::unique_ptr<Measurement>> {
        const double target = r.number("target", 0.01);
        const int maxSweeps = static_cast<int>(r.number("maxSweeps", 100000));
        if (!(target > 0.0 && target < 1.0))
            return Error{"measurement 'solverRace': target must be > 0 and < 1"};
        if (maxSweeps < 1) return Error{"measurement 'solverRace': maxSweeps must be >= 1"};
        const double nullSpace = r.number("nullSpace", 0.0);
        const int maxNlgsSweeps = static_cast<int>(r.number("maxNlgsSweeps", 20000));
        const int maxNullSpaceSweeps = static_cast<int>(r.number("maxNullSpaceSweeps", 300));
        if (nullSpace != 0.0 && nullSpace != 1.0)
            return Error{"measurement 'solverRace': nullSpace must be 0 or 1"};
        if (maxNlgsSweeps < 1 || maxNullSpaceSweeps < 1)
            return Error{
                "measurement 'solverRace': maxNlgsSweeps and maxNullSpaceSweeps must be >= 1"};
        if (world.settings().mode == StepMode::Smooth)
            return Error{
                "measurement 'solverRace': races the nonsmooth solvers (mode semi-smooth "
                "or nonsmooth)"};
        return std::unique_ptr<Measurement>(new SolverRace(r.number("at", 0.0), target, maxSweeps,
                                                           nullSpace == 1.0, maxNlgsSweeps,
                                                           maxNullSpaceSweeps));
    }};

}  // namespace ndem
