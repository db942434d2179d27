// A method added from outside the engine is a method like the engine's own: registered by one
// call, it is a choice of solver.method (the list the app's Solver panel offers), a row of
// `ndem keys`, steps a scene and goes through the conformance suite
// (solver_conformance_test.cpp: the suite takes every registered method).
#include "io/key_table.hpp"
#include "test_util.hpp"

#include <cstdio>
#include <memory>

namespace ndem {
namespace {

/// Jacobi's projected iteration on the assembled problem: every row from the same velocities,
/// then all at once, damped by ω — the trivial relative of projected Gauss–Seidel.
class JacobiMethod final : public ContactSolver {
  public:
    SolveReport solve(StepProblem& step, const SolveControls& c) override {
        const ContactProblem& problem = step.assembled();
        Eigen::VectorXd lambda = Eigen::VectorXd::Zero(problem.rows());
        const LocalProblem local = problem.local();
        const int iterations = iterate(local, lambda, c);
        return assembledReport(step.store(lambda), iterations, m_change, "largest change", false);
    }
    SolveReport solveLocal(const LocalProblem& p, Eigen::VectorXd& r,
                           const SolveControls& c) override {
        SolveReport report;
        report.iterations = iterate(p, r, c);
        report.residual = m_change;
        report.residualName = "largest change";
        return report;
    }

  private:
    int iterate(const LocalProblem& p, Eigen::VectorXd& r, const SolveControls& c) {
        constexpr double kOmega = 0.5;
        if (r.size() != p.rows()) r = Eigen::VectorXd::Zero(p.rows());
        const Eigen::VectorXd diagonal = p.W.diagonal();
        for (int k = 0; k < c.iterations; ++k) {
            const Eigen::VectorXd u = p.W * r + p.q;
            Eigen::VectorXd next = r;
            for (int j = 0; j < p.rows(); ++j)
                if (diagonal[j] > 0.0) next[j] -= kOmega * u[j] / diagonal[j];
            for (int contact = 0; contact < p.contacts(); ++contact) {
                const int o = p.offset[static_cast<size_t>(contact)];
                next[o] = std::max(0.0, next[o]);
                double t = 0.0;
                for (int d = 1; d < p.dim[static_cast<size_t>(contact)]; ++d)
                    t += next[o + d] * next[o + d];
                const double limit = p.mu[static_cast<size_t>(contact)] * next[o];
                if (t > limit * limit)
                    for (int d = 1; d < p.dim[static_cast<size_t>(contact)]; ++d)
                        next[o + d] *= limit / std::sqrt(t);
            }
            m_change = (next - r).cwiseAbs().maxCoeff();
            r = next;
        }
        return c.iterations;
    }
    double m_change = 0.0;
};

/// The one line a new method takes.
const bool kRegistered = [] {
    SolverInfo jacobi;
    jacobi.name = "jacobi";
    jacobi.summary = "damped projected Jacobi on the assembled problem (a test's)";
    jacobi.residualName = "largest change";
    jacobi.accuracy = 1e-9;
    jacobi.packingAccuracy = 1e-8;
    jacobi.conformanceIterations = 20000;
    jacobi.make = [] { return std::make_unique<JacobiMethod>(); };
    registerSolver(std::move(jacobi));
    return true;
}();

/// The names solver.method offers.
struct MethodChoices {
    std::vector<std::string> names;
    void operator()(const SettingInfo& info, const int&, ChoiceNames n) {
        if (std::string(info.key) == "solver.method") names.assign(n.begin(), n.end());
    }
    void operator()(const SettingInfo&, const auto&) {}
};

TEST(SolverRegistry, AMethodRegisteredOutsideTheEngineIsAChoiceOfSolverMethod) {
    ASSERT_TRUE(kRegistered);
    ASSERT_NE(findSolver("jacobi"), nullptr);
    // What a scene file, --set and the app's combo box read.
    MethodChoices choices;
    const StepSettings defaults;
    visitSettings(defaults, choices);
    EXPECT_NE(std::find(choices.names.begin(), choices.names.end(), "jacobi"), choices.names.end());
    // The engine's own come first, in the order checkpoints store them by.
    ASSERT_GE(choices.names.size(), 10u);
    EXPECT_EQ(choices.names[0], "pgs");
    EXPECT_EQ(choices.names[3], "interior-point");
    EXPECT_EQ(choices.names[7], "nlgs-jac");
    StepSettings s;
    s.method = "jacobi";
    EXPECT_FALSE(validate(s));
    s.method = "no-such-method";
    const auto refused = validate(s);
    ASSERT_TRUE(refused);
    EXPECT_NE(refused->message.find("settings.solver.method: not one of pgs, nncg"),
              std::string::npos)
        << refused->message;
}

TEST(SolverRegistry, AMethodRegisteredOutsideTheEngineIsARowOfNdemKeys) {
    std::FILE* f = std::tmpfile();
    ASSERT_NE(f, nullptr);
    printKeyTable(f);
    std::rewind(f);
    std::string text;
    char buffer[4096];
    while (const size_t n = std::fread(buffer, 1, sizeof buffer, f))
        text.append(buffer, n);
    std::fclose(f);
    EXPECT_NE(text.find("jacobi           iterations: sweeps"), std::string::npos);
    EXPECT_NE(text.find("damped projected Jacobi on the assembled problem"), std::string::npos);
    EXPECT_NE(text.find("interior-point   iterations: Newton steps"), std::string::npos);
}

TEST(SolverRegistry, AMethodRegisteredOutsideTheEngineStepsAScene) {
    // A column at rest on the floor: the world's step runs the method and says what it did.
    StepSettings s;
    s.method = "jacobi";
    s.iterations = 400;
    s.timeStep = 0.01;
    s.impactEnabled = false;
    Scene scene;
    scene.settings = s;
    Material grain;
    grain.name = "grain";
    grain.density = 2000.0;
    scene.materials.push_back(grain);
    for (int k = 0; k < 3; ++k) {
        ParticleSpec p;
        p.radius = 0.005;
        p.position = Vec3(0.0, 0.0, 0.005 + 0.01 * k);
        scene.particles.push_back(p);
    }
    scene.walls.push_back(test::plane("floor", Vec3::Zero(), Vec3::UnitZ()));
    World world = test::makeWorld(scene);
    StepStats stats;
    for (int k = 0; k < 50; ++k)
        stats = world.step();
    EXPECT_EQ(stats.iterations, 400);
    EXPECT_STREQ(stats.iterationUnit, "sweeps");
    EXPECT_STREQ(stats.solverResidualName, "largest change");
    EXPECT_GT(stats.contacts, 2);
    // At rest on the floor: nothing falls through.
    for (const Vec3& x : world.particles().position)
        EXPECT_GT(x.z(), 0.0049);
}

}  // namespace
}  // namespace ndem
