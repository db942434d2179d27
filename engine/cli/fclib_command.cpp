// `ndem fclib export` and `ndem fclib solve`: a step's contact problem as an FCLib file, and
// any FCLib local problem solved by our solvers with Siconos' error measure, so that figures
// compare with Siconos' and the FCLib collection's.
#include "commands.hpp"

#include "io/fclib_file.hpp"
#include "scene_run.hpp"
#include "solve/convex/interior_point_settings.hpp"
#include "solve/method/solver_registry.hpp"
#include "solve/nscd/nscd_settings.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <memory>

namespace ndem::cli {

namespace {

struct ExportOptions {
    std::string scene, out;
    long step = 0;
    std::vector<Override> overrides;
};

struct SolveOptions {
    std::string file, out, solver = "interior-point", prediction = "zero";
    double tolerance = 1e-8;
    double weight = 0.05;
    long iterations = 0;  ///< 0: 200 Newton steps, or 10 000 sweeps
};

std::optional<std::string> checkOutput(const std::string& flag, const std::string& path) {
    namespace fs = std::filesystem;
    std::error_code ec;
    const fs::path parent = fs::path(path).parent_path();
    if (!parent.empty() && !fs::is_directory(parent, ec))
        return flag + path + ": directory '" + parent.string() + "' does not exist";
    if (fs::is_directory(path, ec)) return flag + path + ": is a directory";
    return std::nullopt;
}

/// The registered methods, for help and errors: "pgs, nncg, ... or newton".
std::string methodList() {
    std::string list;
    const auto& all = SolverRegistry::instance().solvers();
    for (size_t k = 0; k < all.size(); ++k)
        list += (k == 0 ? "" : k + 1 == all.size() ? " or " : ", ") + all[k].name;
    return list;
}

int runExport(const ExportOptions& o) {
    if (o.scene.empty() || o.out.empty())
        return badInput("fclib export needs a scene, --step N and the output file");
    if (auto bad = checkOutput("", o.out)) return badInput(*bad);
    auto run = loadSceneRun(o.scene, o.overrides);
    if (!run) return badInput(run.error().message);
    World& world = run->world;
    if (world.settings().mode == StepMode::Smooth)
        return badInput(o.scene +
                        ": mode smooth has no contact problem (use semi-smooth or nonsmooth)");
    for (long k = 1; k < o.step; ++k)
        world.step();
    world.requestContactProblem();
    world.step();
    const std::optional<ContactProblem> problem = world.takeContactProblem();
    if (!problem || problem->contacts() == 0) {
        std::fprintf(stderr, "ndem: error: %s: step %ld has no contacts to export\n",
                     o.scene.c_str(), o.step);
        return 1;
    }
    const LocalProblem local = problem->physical();
    const std::string title =
        "NDEM Studio: " + run->scene.name + ", step " + std::to_string(o.step);
    const std::string description =
        "Local 3D frictional contact problem of one semi-implicit step: r impulses (N s), u "
        "contact velocities (m/s), rows normal, t1, t2 per contact (ndem fclib export " +
        o.scene + " --step " + std::to_string(o.step) + ")";
    if (auto e = writeFclibLocal(o.out, local, title, description)) {
        std::fprintf(stderr, "ndem: error: %s\n", e->message.c_str());
        return 1;
    }
    nlohmann::json j{{"file", o.out},
                     {"contacts", local.contacts()},
                     {"rows", local.rows()},
                     {"step", o.step},
                     {"nonZeros", local.W.nonZeros()}};
    std::printf("%s\n", j.dump(2).c_str());
    return 0;
}

int runSolve(const SolveOptions& o) {
    if (o.file.empty()) return badInput("fclib solve needs an FCLib file");
    if (!o.out.empty())
        if (auto bad = checkOutput("--out ", o.out)) return badInput(*bad);
    auto problem = readFclibLocal(o.file);
    if (!problem) return badInput(problem.error().message);
    const LocalProblem& p = *problem;
    Eigen::VectorXd r = Eigen::VectorXd::Zero(p.rows());
    // The method as solver.method names it, on W: its settings' defaults, but for the null-space
    // predictions (a file has no time step or gaps) and the interior point's stalls, which it
    // leaves (`--solver newton` finishes them).
    const SolverInfo& method = *findSolver(o.solver);
    StepSettings settings;
    NullSpaceSettings& nullSpace = settings.solverBlocks.edit<NullSpaceSettings>();
    nullSpace.prediction = o.prediction == "unilateral" ? Prediction::Unilateral : Prediction::Zero;
    nullSpace.weight = o.weight;
    settings.solverBlocks.edit<InteriorPointSettings>().finishStalls = false;
    SolveControls controls;
    controls.iterations =
        o.iterations > 0 ? static_cast<int>(o.iterations) : method.localIterations;
    controls.tolerance = o.tolerance;
    controls.blocks = &settings.solverBlocks;
    const auto start = std::chrono::steady_clock::now();
    const SolveReport report = method.make()->solveLocal(p, r, controls);
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const double error = coulombError(p, r);
    if (!o.out.empty()) {
        const Eigen::VectorXd u = p.W * r + p.q;
        std::optional<Error> e =
            writeFclibLocal(o.out, p, "NDEM Studio solution of " + o.file,
                            "the problem of " + o.file + " with its solution by " + o.solver);
        if (!e) e = writeFclibSolution(o.out, r, u);
        if (e) {
            std::fprintf(stderr, "ndem: error: %s\n", e->message.c_str());
            return 1;
        }
    }
    nlohmann::json j{{"file", o.file},
                     {"solver", o.solver},
                     {"contacts", p.contacts()},
                     {"iterations", report.iterations},
                     {"unit", method.iterationUnit},
                     {"residual", report.residual},
                     {"residualName", report.residualName},
                     {"error", error},
                     {"tolerance", o.tolerance},
                     {"converged", report.converged && error <= o.tolerance},
                     {"seconds", seconds}};
    for (const auto& [name, count] : report.stages)
        j["stages"][name] = count;
    std::printf("%s\n", j.dump(2).c_str());
    return 0;
}

}  // namespace

Command addFclibCommand(CLI::App& ndem) {
    CLI::App* app = cmdline::addCommand(
        ndem, "fclib", "ndem fclib export|solve ...",
        "FCLib files, the field's exchange format for frictional contact problems (HDF5):\n"
        "export a step's contact problem, or solve any local 3D problem.",
        kExitCodes);
    auto e = std::make_shared<ExportOptions>();
    CLI::App* exp = cmdline::addCommand(
        *app, "export", "ndem fclib export SCENE --step N OUT.hdf5 [--set key=value]...",
        "Writes the contact problem of step N of the scene (local form: W, q, mu; impulses in\n"
        "N s, velocities in m/s) as it is about to be solved, warm start included.",
        kExitCodes);
    exp->add_option("SCENE", e->scene, "the scene file")->type_name("FILE.json");
    exp->add_option("OUT", e->out, "the FCLib file to write")->type_name("OUT.hdf5");
    cmdline::addCount(*exp, "--step", "N", "the step whose problem is written (1 = the first)",
                      e->step, 1, kMaxSteps, "a whole number of steps from 1");
    cmdline::addOverrides(*exp, e->overrides);

    auto s = std::make_shared<SolveOptions>();
    CLI::App* sol = cmdline::addCommand(
        *app, "solve",
        "ndem fclib solve FILE.hdf5 [--solver NAME] [--prediction zero|unilateral] [--weight W] "
        "[--tolerance T] [--iterations N] [--out R.hdf5]",
        "Solves a local FCLib problem (3D, or 2D) under Coulomb's law by any solver.method, the\n"
        "same algorithm a step runs, on W (ndem keys lists the methods), and prints JSON:\n"
        "contacts, iterations and their unit, the method's own residual, error (Siconos'\n"
        "fc3d/fc2d error: the natural-map residual relative to |q|), seconds. pgs, nncg and\n"
        "apgd sweep row by row with W's diagonal as D and stop at the error; nlgs solves each\n"
        "contact's local problem exactly (Alart 2014 Alg. 2); nlkergs-i, nlkergs-p and nlgs-jac\n"
        "sweep W + omega Z, Z the projector onto W's null space (Alart 2014 Alg. 3, 5, 7; they\n"
        "stop at Eq. 10's error and answer the regularised problem, so Siconos' error may stay\n"
        "above the tolerance). The interior point solves a 2D problem as a complementarity\n"
        "problem, a 3D one as a fixed point of cone programs, to its own 1e-10, stalls left as\n"
        "they are. newton is the most accurate: the interior point's answer, up to 20000\n"
        "Gauss-Seidel sweeps, then the semismooth Newton method on the Alart-Curnier function\n"
        "(Siconos' NSN-AC), each from the one before (--iterations: the Newton steps of both, "
        "300);\n"
        "JSON 'stages' says what each took. --out writes the problem with its solution (r, u).",
        kExitCodes);
    sol->add_option("FILE", s->file, "the FCLib file")->type_name("FILE.hdf5");
    cmdline::addValue(*sol, "--solver", "NAME",
                      "a solver.method (ndem keys lists them; default interior-point)",
                      [s](const std::string& v) -> std::optional<std::string> {
                          if (findSolver(v)) {
                              s->solver = v;
                              return std::nullopt;
                          }
                          return cmdline::refused("--solver", v, methodList());
                      });
    cmdline::addValue(*sol, "--prediction", "NAME",
                      "the null-space solvers' prediction: zero (default) or unilateral (the "
                      "file has no time step or gaps for the others)",
                      [s](const std::string& v) -> std::optional<std::string> {
                          if (v != "zero" && v != "unilateral")
                              return cmdline::refused("--prediction", v, "zero or unilateral");
                          s->prediction = v;
                          return std::nullopt;
                      });
    cmdline::addNumber(*sol, "--weight", "W",
                       "omega / |W| of the null-space solvers' W + omega Z (0.05)", s->weight, 0.0,
                       1e6, "a number >= 0");
    cmdline::addNumber(*sol, "--tolerance", "T", "stop at this error (1e-8)", s->tolerance, 0.0,
                       1.0, "a number > 0 and <= 1");
    cmdline::addCount(*sol, "--iterations", "N",
                      "at most N iterations in the method's unit: sweeps (10000) or Newton steps "
                      "(interior-point: 200, newton: 300)",
                      s->iterations, 1, 100000000, "a whole number from 1 to 10^8");
    cmdline::addPath(*sol, "--out", "R.hdf5", "write the problem and its solution here", s->out);
    return {app, [app, exp, sol, e, s] {
                if (exp->parsed()) return runExport(*e);
                if (sol->parsed()) return runSolve(*s);
                std::fputs(app->help().c_str(), stderr);
                return 2;
            }};
}

}  // namespace ndem::cli
