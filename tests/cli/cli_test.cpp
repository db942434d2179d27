// `ndem` as a user runs it: bad input prints one line naming the file, key and value, exits
// with code 2, and leaves no output file behind; a good run writes a complete report.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <sys/wait.h>
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace {

namespace fs = std::filesystem;

struct Result {
    int code = -1;
    std::string out, err;
};

std::string readFile(const fs::path& p) {
    std::ifstream in(p);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

class Cli : public ::testing::Test {
  protected:
    void SetUp() override {
        m_dir = fs::temp_directory_path() /
                ("ndem_cli_" + std::to_string(::getpid()) + "_" +
                 ::testing::UnitTest::GetInstance()->current_test_info()->name());
        fs::remove_all(m_dir);
        fs::create_directories(m_dir);
    }
    void TearDown() override { fs::remove_all(m_dir); }

    Result run(const std::string& args) {
        const fs::path out = m_dir / "stdout.txt", err = m_dir / "stderr.txt";
        const std::string cmd =
            std::string(NDEM_CLI) + " " + args + " >" + out.string() + " 2>" + err.string();
        Result r;
        const int status = std::system(cmd.c_str());
        r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
        r.out = readFile(out);
        r.err = readFile(err);
        return r;
    }
    std::string scene(const std::string& name, const std::string& text) {
        const fs::path p = m_dir / name;
        std::ofstream(p) << text;
        return p.string();
    }
    std::string report() const { return (m_dir / "report.json").string(); }

    /// Exit code 2, exactly one line on stderr containing every expected fragment, no report.
    void expectBadInput(const std::string& args, std::initializer_list<std::string> fragments) {
        const Result r = run(args + " --report " + report() + " --vtk " + (m_dir / "vtk").string());
        EXPECT_EQ(r.code, 2) << args << "\n" << r.err;
        EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
        EXPECT_EQ(r.err.rfind("ndem: error: ", 0), 0u) << r.err;
        for (const std::string& f : fragments)
            EXPECT_NE(r.err.find(f), std::string::npos) << f << " not in: " << r.err;
        EXPECT_FALSE(fs::exists(report())) << "partial report left behind";
        EXPECT_FALSE(fs::exists(m_dir / "vtk")) << "output directory created for a failed run";
        EXPECT_FALSE(fs::exists(report() + ".tmp"));
    }

    fs::path m_dir;
};

const char* kScene = R"({
  "name": "pair",
  "duration": 0.05,
  "settings": { "timeStep": 0.001, "solver": { "iterations": 20 } },
  "materials": [ { "name": "grain", "youngsModulus": 1e7, "restitution": 0.5 } ],
  "walls": [ { "name": "floor", "type": "plane" } ],
  "particles": [ { "type": "column", "count": 3, "radius": 0.005 } ],
  "measurements": [ { "type": "wallForce", "wall": "floor" } ]
})";

std::string replaced(std::string text, const std::string& from, const std::string& to) {
    const size_t at = text.find(from);
    return at == std::string::npos ? text : text.replace(at, from.size(), to);
}

TEST_F(Cli, MissingSceneFile) {
    expectBadInput("run " + (m_dir / "nope.json").string(), {"nope.json", "cannot open"});
}

TEST_F(Cli, MalformedJson) {
    const std::string f = scene("bad.json", "{\n \"name\": \"x\",\n \"duration\": }\n");
    expectBadInput("run " + f, {"bad.json:3:", "invalid JSON"});
}

TEST_F(Cli, UnknownKey) {
    const std::string f = scene("s.json", replaced(kScene, "\"iterations\"", "\"iteratons\""));
    expectBadInput("run " + f, {"s.json", "settings.solver.iteratons", "unknown key"});
}

TEST_F(Cli, WrongType) {
    const std::string f =
        scene("s.json", replaced(kScene, "\"iterations\": 20", "\"iterations\": true"));
    expectBadInput("run " + f,
                   {"s.json", "settings.solver.iterations", "expected an integer", "true"});
}

TEST_F(Cli, NegativeRadius) {
    const std::string f =
        scene("s.json", replaced(kScene, "\"radius\": 0.005", "\"radius\": -0.005"));
    expectBadInput("run " + f, {"s.json", "particles.0.radius", "-0.005"});
}

TEST_F(Cli, NegativeMass) {
    const std::string f = scene(
        "s.json", replaced(kScene, "\"type\": \"column\", \"count\": 3, \"radius\": 0.005",
                           "\"type\": \"list\", \"items\": [{\"radius\": 0.005, \"mass\": -2}]"));
    expectBadInput("run " + f, {"s.json", "particles.0.items.0.mass", "-2"});
}

TEST_F(Cli, NonPositiveTimeStep) {
    const std::string f = scene("s.json", kScene);
    expectBadInput("run " + f + " --set timeStep=0",
                   {"--set timeStep=0", "settings.timeStep", "> 0"});
    expectBadInput("run " + f + " --set timeStep=-0.01", {"settings.timeStep", "-0.01"});
}

TEST_F(Cli, NegativeFriction) {
    const std::string f = scene("s.json", kScene);
    expectBadInput("run " + f + " --set materials.grain.friction=-0.3",
                   {"materials.grain.friction=-0.3", "materials.0.friction", "-0.3"});
}

TEST_F(Cli, RestitutionOutsideUnitInterval) {
    const std::string f = scene("s.json", kScene);
    expectBadInput("run " + f + " --set materials.grain.restitution=1.2", {"restitution", "1.2"});
    expectBadInput("run " + f + " --set materials.grain.restitution=-0.1", {"restitution", "-0.1"});
}

TEST_F(Cli, SmoothStepAboveStabilityLimit) {
    const std::string f = scene("s.json", kScene);
    expectBadInput("run " + f + " --set mode=smooth --set timeStep=0.001",
                   {"s.json", "timeStep", "stability limit", "sqrt(m/k)"});
}

TEST_F(Cli, UnknownOverrideKeyAndBadFlags) {
    const std::string f = scene("s.json", kScene);
    expectBadInput("run " + f + " --set solver.sweeps=3", {"--set solver.sweeps=3", "unknown key"});
    expectBadInput("run " + f + " --set nokeyvalue", {"--set nokeyvalue", "key=value"});
    expectBadInput("run " + f + " --frobnicate", {"--frobnicate"});
    expectBadInput("run " + f + " --steps -5", {"--steps -5"});
    expectBadInput("run " + f + " --steps 5 --time 1", {"--steps or --time"});
    expectBadInput("run", {"needs a scene file"});
}

TEST_F(Cli, ThreadsFlagTakesOneTo1024AndRefusesTheRest) {
    const std::string f = scene("s.json", kScene);
    for (const char* bad : {"0", "-1", "1025", "abc", "2.5", "99999999999999999999"})
        expectBadInput("run " + f + " --threads " + bad,
                       {std::string("--threads ") + bad, "1 to 1024"});
    const Result r = run("run " + f + " --steps 3 --threads 2 --quiet --report " + report());
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_EQ(nlohmann::json::parse(readFile(report()))["settings"]["threads"], 2);
}

TEST_F(Cli, CountsOfSweepAndValidateAreWholeNumbersInRange) {
    // A count too long for a long threw std::out_of_range through main; letters became 1.
    const std::string f = scene("s.json", kScene);
    struct Case {
        std::string args, fragment;
    };
    for (const Case& c :
         {Case{"sweep " + f + " --set solver.iterations=10,20 --steps 99999999999999999999",
               "--steps 99999999999999999999"},
          Case{"sweep " + f + " --set solver.iterations=10,20 --jobs 0", "--jobs 0"},
          Case{"sweep " + f + " --set solver.iterations=10,20 --jobs 99999999999999999999",
               "--jobs 99999999999999999999"},
          Case{"validate --jobs abc --out " + (m_dir / "v").string(), "--jobs abc"},
          Case{"validate --jobs 2.5 --out " + (m_dir / "v").string(), "--jobs 2.5"},
          Case{"validate --checkpoint-every 0 --out " + (m_dir / "v").string(),
               "--checkpoint-every 0"},
          Case{"validate --checkpoint-every soon --out " + (m_dir / "v").string(),
               "--checkpoint-every soon"},
          Case{"run " + f + " --steps 99999999999999999999", "--steps 99999999999999999999"}}) {
        const Result r = run(c.args);
        EXPECT_EQ(r.code, 2) << c.args << "\n" << r.err;
        EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
        EXPECT_NE(r.err.find(c.fragment), std::string::npos) << r.err;
    }
    EXPECT_FALSE(fs::exists(m_dir / "v"));
}

TEST_F(Cli, EveryNeedsVtk) {
    const std::string f = scene("s.json", kScene);
    const Result r = run("run " + f + " --every 3");
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("--every goes with --vtk"), std::string::npos) << r.err;
}

TEST_F(Cli, ReportDirectoryMustExist) {
    const std::string f = scene("s.json", kScene);
    const Result r = run("run " + f + " --report " + (m_dir / "missing" / "r.json").string());
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("does not exist"), std::string::npos) << r.err;
}

TEST_F(Cli, RunWritesACompleteReportAndVtk) {
    const std::string f = scene("s.json", kScene);
    const Result r = run("run " + f + " --steps 30 --set solver.iterations=25 --report " +
                         report() + " --vtk " + (m_dir / "vtk").string() + " --every 10 --quiet");
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.out.find("pair"), std::string::npos);
    const nlohmann::json j = nlohmann::json::parse(readFile(report()));
    EXPECT_EQ(j["run"]["steps"], 30);
    EXPECT_NEAR(j["run"]["simulatedTime"].get<double>(), 0.03, 1e-12);
    EXPECT_EQ(j["settings"]["solver"]["iterations"], 25);
    EXPECT_EQ(j["overrides"][0], "solver.iterations=25");
    EXPECT_EQ(j["series"]["t"].size(), 30u);
    EXPECT_EQ(j["summary"]["contacts"]["final"], 3.0);  // two pairs and the floor
    EXPECT_EQ(j["measurements"][0]["name"], "wallForce");
    // Three spheres resting on the floor: the floor carries their weight.
    const double weight = 3 * 2500.0 * M_PI / 6.0 * 1e-6 * 9.81;
    EXPECT_NEAR(-j["measurements"][0]["scalars"]["finalFz"].get<double>(), weight, 0.02 * weight);
    EXPECT_TRUE(fs::exists(m_dir / "vtk" / "particles.pvd"));
    EXPECT_TRUE(fs::exists(m_dir / "vtk" / "particles_000003.vtp"));  // frames at 0, 10, 20, 30
}

TEST_F(Cli, SettingsPhasesChangeTheStepAndTheRunCountsItsSteps) {
    // 0.02 s at h = 1 ms, then 0.03 s at h = 2 ms with another sweep count: 35 steps, and the
    // report's settings are the last phase's; a bad phase is one error naming it.
    const std::string f =
        scene("p.json", replaced(kScene, R"("measurements")",
                                 R"("phases": [ { "at": 0.02, "settings": { "timeStep": 0.002,
                                  "solver": { "iterations": 7 } } } ],
                              "measurements")"));
    const Result r = run("run " + f + " --report " + report() + " --quiet");
    ASSERT_EQ(r.code, 0) << r.err;
    const nlohmann::json j = nlohmann::json::parse(readFile(report()));
    EXPECT_EQ(j["run"]["steps"], 35);
    EXPECT_NEAR(j["run"]["simulatedTime"].get<double>(), 0.05, 1e-9);
    const std::vector<double> sweeps = j["series"]["iterations"];
    EXPECT_EQ(sweeps.front(), 20.0);
    EXPECT_EQ(sweeps.back(), 7.0);
    fs::remove(report());
    const std::string bad =
        scene("b.json", replaced(kScene, R"("measurements")",
                                 R"("phases": [ { "at": 0.02, "settings": { "timeStep": -1 } } ],
                              "measurements")"));
    expectBadInput("run " + bad, {"phases.0.settings", "timeStep"});
    const std::string backwards =
        scene("c.json", replaced(kScene, R"("measurements")",
                                 R"("phases": [ { "at": 0.02, "settings": { "threads": 1 } },
                                          { "at": 0.01, "settings": { "threads": 2 } } ],
                              "measurements")"));
    expectBadInput("run " + backwards, {"phases.1.at"});
}

TEST_F(Cli, ADivergingRunStopsWithExitThreeNamingStepParticleAndQuantity) {
    const std::string f = scene("s.json", kScene);
    const Result r = run("run " + f + " --steps 50 --set settings.gravity=[0,0,-1e308] --report " +
                         report() + " --quiet");
    EXPECT_EQ(r.code, 3) << r.err;
    EXPECT_NE(r.err.find("ndem: error: the run diverged at step 1"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("particle"), std::string::npos);
    EXPECT_NE(r.err.find("velocity"), std::string::npos);
    const nlohmann::json j = nlohmann::json::parse(readFile(report()));
    EXPECT_EQ(j["divergence"]["step"], 1);
    EXPECT_EQ(j["divergence"]["quantity"], "velocity");
    EXPECT_EQ(j["run"]["steps"], 1);
}

TEST_F(Cli, AStepTooLargeWarnsOnceOnStderrAndInTheReport) {
    // The issue's example, smaller: the silo at h = 1 s with E = 10¹² Pa.
    const Result r = run("run " + std::string(NDEM_SOURCE_DIR) +
                         "/assets/scenes/silo.json --steps 6 --set particles.0.count=200"
                         " --set settings.timeStep=1.0 --set materials.0.youngsModulus=1e12"
                         " --report " +
                         report() + " --quiet");
    ASSERT_EQ(r.code, 0) << r.err;
    size_t lines = 0;
    for (size_t at = r.err.find("ndem: warning:"); at != std::string::npos;
         at = r.err.find("ndem: warning:", at + 1))
        ++lines;
    const nlohmann::json j = nlohmann::json::parse(readFile(report()));
    ASSERT_GE(j["warnings"].size(), 1u);
    EXPECT_EQ(lines, j["warnings"].size()) << r.err;
    EXPECT_EQ(j["warnings"][0]["kind"], "overlap");
    EXPECT_NE(r.err.find("guards.overlap = 0.2 d"), std::string::npos) << r.err;
    EXPECT_NE(r.out.find("warnings      overlap at step"), std::string::npos) << r.out;
    // Off with guards.overlap = 0.
    const Result quiet = run("run " + std::string(NDEM_SOURCE_DIR) +
                             "/assets/scenes/silo.json --steps 6 --set particles.0.count=200"
                             " --set settings.timeStep=1.0 --set materials.0.youngsModulus=1e12"
                             " --set settings.guards.overlap=0 --quiet");
    EXPECT_EQ(quiet.err.find("overlaps"), std::string::npos) << quiet.err;
}

TEST_F(Cli, AStaticStepWithoutEquilibriumWarnsAndCountsIt) {
    // A disk on a disk, 10° off the vertical: it rolls off, which the static formulation, with
    // no inertia to hold it, does metres in a step.
    const std::string path = scene("rolls.json", R"({
  "name": "rolls",
  "duration": 0.02,
  "settings": { "dimension": 2, "mode": "nonsmooth", "timeStep": 0.01,
                "solver": { "method": "interior-point", "formulation": "static" } },
  "materials": [ { "name": "grain", "friction": 0.5, "restitution": 0 } ],
  "walls": [ { "name": "floor", "type": "plane" } ],
  "particles": [ { "type": "list", "items": [
    { "position": [0, 0, 0.005], "radius": 0.005 },
    { "position": [0.0017365, 0, 0.0148481], "radius": 0.005 } ] } ]
})");
    const Result r = run("run " + path + " --report " + report() + " --quiet");
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.err.find("ndem: warning: step 1 (t = 0.01 s): the static step moved"),
              std::string::npos)
        << r.err;
    // The second step's detection reached as far as the first step's speeds: it counts no more.
    EXPECT_NE(r.out.find("static steps  1 moved grains farther than detection reached"),
              std::string::npos)
        << r.out;
    const nlohmann::json j = nlohmann::json::parse(readFile(report()));
    EXPECT_EQ(j["summary"]["staticRunawaySteps"], 1);
    EXPECT_EQ(j["warnings"][0]["kind"], "static");
}

TEST_F(Cli, TheReportHashesTheStateBitForBit) {
    const std::string f = scene("s.json", kScene);
    auto hash = [&](const std::string& extra) {
        const Result r = run("run " + f + " --steps 40 --report " + report() + " --quiet " + extra);
        EXPECT_EQ(r.code, 0) << r.err;
        return nlohmann::json::parse(readFile(report()))["summary"]["stateHash"].get<std::string>();
    };
    const std::string one = hash("--threads 1");
    EXPECT_EQ(one.size(), 16u);
    EXPECT_EQ(one.find_first_not_of("0123456789abcdef"), std::string::npos) << one;
    EXPECT_EQ(hash("--threads 1"), one);
    EXPECT_EQ(hash("--threads 2"), one);
    EXPECT_NE(hash("--threads 1 --set solver.iterations=21"), one);
}

TEST_F(Cli, SweepReportsEachFinishedRunWithAnEta) {
    const std::string f = scene("s.json", kScene);
    const Result r =
        run("sweep " + f + " --set solver.iterations=10,20,30 --steps 20 --jobs 1 --out " +
            (m_dir / "sweep").string());
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.err.find("sweep [1/3] solver.iterations=10:"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("ETA"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("sweep [3/3]"), std::string::npos) << r.err;
    const std::string summary = readFile(m_dir / "sweep" / "summary.csv");
    EXPECT_NE(summary.find("divergedAtStep"), std::string::npos);
}

/// summary.csv without its wallSeconds column (the one figure a run repeated may change).
std::string withoutWallSeconds(const std::string& csv) {
    std::stringstream in(csv);
    std::string line, out;
    int skip = -1;
    while (std::getline(in, line)) {
        std::vector<std::string> cells;
        std::stringstream row(line);
        for (std::string c; std::getline(row, c, ',');)
            cells.push_back(c);
        if (skip < 0)
            skip = static_cast<int>(std::find(cells.begin(), cells.end(), "wallSeconds") -
                                    cells.begin());
        for (int k = 0; k < static_cast<int>(cells.size()); ++k)
            if (k != skip) out += cells[k] + ",";
        out += "\n";
    }
    return out;
}

TEST_F(Cli, ASweepKeepsEachRunAndResumesOnlyTheMissingOnes) {
    const std::string f = scene("s.json", kScene);
    const fs::path out = m_dir / "sweep";
    const std::string sweep = "sweep " + f +
                              " --set solver.iterations=10,20,30 --steps 20 --jobs 1 --out " +
                              out.string();
    ASSERT_EQ(run(sweep).code, 0);
    for (int i = 0; i < 3; ++i)
        EXPECT_TRUE(fs::exists(out / "runs" / ("run-" + std::to_string(i) + ".json"))) << i;
    const std::string full = withoutWallSeconds(readFile(out / "summary.csv"));

    fs::remove(out / "runs" / "run-1.json");
    fs::remove(out / "summary.csv");
    const Result resumed = run(sweep + " --resume");
    ASSERT_EQ(resumed.code, 0) << resumed.err;
    EXPECT_NE(resumed.err.find("2 of 3 runs already done"), std::string::npos) << resumed.err;
    EXPECT_NE(resumed.err.find("sweep [1/1] solver.iterations=20:"), std::string::npos)
        << resumed.err;
    EXPECT_EQ(resumed.err.find("iterations=10:"), std::string::npos) << resumed.err;
    EXPECT_EQ(withoutWallSeconds(readFile(out / "summary.csv")), full)
        << "the same table, run 1 done again";

    // Another length, or a changed scene file, is another sweep: nothing is taken.
    const Result longer =
        run("sweep " + f + " --set solver.iterations=10,20,30 --steps 25 --jobs 1 --resume --out " +
            out.string());
    EXPECT_NE(longer.err.find("0 of 3 runs already done"), std::string::npos) << longer.err;
    std::ofstream(f, std::ios::app) << "\n";
    const Result edited = run(sweep + " --resume");
    EXPECT_NE(edited.err.find("0 of 3 runs already done"), std::string::npos) << edited.err;
}

TEST_F(Cli, ASweepStoppedWithCtrlCKeepsItsFinishedRuns) {
    const std::string f = scene("s.json", kScene);
    const fs::path out = m_dir / "sweep";
    const std::string sweep = std::string(NDEM_CLI) + " sweep " + f +
                              " --set solver.iterations=10,20,30,40 --steps 60000 --jobs 1 --out " +
                              out.string();
    // SIGINT once the first run is on disk, as a Ctrl-C in the terminal would send it (set -m:
    // without job control bash starts background commands with SIGINT ignored).
    const std::string script = "bash -c 'set -m; " + sweep +
                               " 2>/dev/null & pid=$!; for k in $(seq 12000); do [ -f " +
                               (out / "runs" / "run-0.json").string() +
                               " ] && break; sleep 0.01; done; kill -INT $pid; wait $pid; exit $?'";
    const int status = std::system(script.c_str());
    ASSERT_TRUE(WIFEXITED(status));
    // Each run takes far longer than the 10 ms the signal may lag: the sweep was stopped. The
    // wait for the first run is long: under AddressSanitizer it takes about 8 s.
    EXPECT_NE(WEXITSTATUS(status), 0) << "the sweep ended before the signal";
    EXPECT_FALSE(fs::exists(out / "summary.csv"));
    ASSERT_TRUE(fs::exists(out / "runs" / "run-0.json")) << "the first run never finished";
    const nlohmann::json first = nlohmann::json::parse(readFile(out / "runs" / "run-0.json"));
    EXPECT_EQ(first["overrides"][0]["value"], "10");

    const Result resumed =
        run("sweep " + f +
            " --set solver.iterations=10,20,30,40 --steps 60000 --jobs 1 --resume --out " +
            out.string());
    ASSERT_EQ(resumed.code, 0) << resumed.err;
    EXPECT_EQ(resumed.err.find("iterations=10:"), std::string::npos)
        << "run 0 was kept: " << resumed.err;
    std::stringstream rows(readFile(out / "summary.csv"));
    int lines = 0;
    for (std::string l; std::getline(rows, l);)
        ++lines;
    EXPECT_EQ(lines, 5);
}

TEST_F(Cli, AValidationCutShortGoesOnFromItsCheckpointsBitForBit) {
    const fs::path whole = m_dir / "whole", cut = m_dir / "cut";
    const std::string validate =
        "validate --quick --case janssen --jobs 1 --checkpoint-every 0.05 --out ";
    const Result first = run(validate + whole.string());
    ASSERT_EQ(first.code, 0) << first.err;
    // Progress: each finished run with the count and the time left.
    EXPECT_NE(first.err.find("validate janssen [1/3 done]"), std::string::npos) << first.err;
    EXPECT_NE(first.err.find("ETA"), std::string::npos) << first.err;
    for (const auto& entry : fs::directory_iterator(whole / "runs"))
        EXPECT_EQ(entry.path().string().find(".running."), std::string::npos)
            << "a checkpoint left: " << entry.path();
    // Killed (SIGKILL) while a run is under way with a checkpoint on disk, then resumed.
    const std::string script =
        "bash -c 'set -m; " + std::string(NDEM_CLI) + " " + validate + cut.string() +
        " 2>/dev/null & pid=$!; for k in $(seq 12000); do ls " + (cut / "runs").string() +
        "/*.running.h5 >/dev/null 2>&1 && break; sleep 0.01; done; kill -KILL $pid; wait $pid'";
    std::system(script.c_str());
    const Result resumed = run(validate + cut.string() + " --resume");
    ASSERT_EQ(resumed.code, 0) << resumed.err;
    EXPECT_NE(resumed.err.find("went on from its checkpoint"), std::string::npos) << resumed.err;
    // The report's time says that part of the case ran before this invocation.
    const std::string section = readFile(cut / "janssen" / "section.md");
    EXPECT_NE(section.substr(0, section.find('\n')).find("s of runs from earlier invocations"),
              std::string::npos)
        << section.substr(0, section.find('\n'));
    EXPECT_EQ(readFile(whole / "janssen" / "section.md").find("earlier invocations"),
              std::string::npos);
    // The case's tables (pressure profiles: no wall time in them) are the same bytes.
    int compared = 0;
    for (const auto& entry : fs::directory_iterator(whole / "janssen")) {
        if (entry.path().extension() != ".csv") continue;
        EXPECT_EQ(readFile(cut / "janssen" / entry.path().filename()), readFile(entry.path()))
            << entry.path();
        ++compared;
    }
    EXPECT_GE(compared, 4);
}

TEST_F(Cli, EveryCommandHasHelp) {
    for (const std::string command : {"run", "sweep", "validate", "bench", "keys", "version"}) {
        const Result r = run(command + " --help");
        EXPECT_EQ(r.code, 0) << command << "\n" << r.err;
        EXPECT_EQ(r.out.rfind("usage: ndem " + command, 0), 0u) << r.out;
        EXPECT_NE(r.out.find("exit codes"), std::string::npos) << command;
        EXPECT_TRUE(r.err.empty()) << r.err;
    }
    // Anywhere among the arguments, and short; the command does not run.
    const Result r = run("run " + (m_dir / "absent.json").string() + " --steps 3 -h");
    EXPECT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.out.find("--vtk DIR"), std::string::npos);
    const Result all = run("help");
    EXPECT_EQ(all.code, 0);
    for (const char* command :
         {"run SCENE", "sweep SCENE", "validate [", "bench [", "keys", "help"})
        EXPECT_NE(all.out.find(command), std::string::npos) << command;
}

TEST_F(Cli, EveryCommandReadsItsFlagsThroughOneParser) {
    // The CLI11 forms: --flag=value, a flag given twice keeps the last, --set keeps its order.
    const std::string f = scene("s.json", kScene);
    const Result r = run("run " + f + " --steps=5 --steps 2 --set=solver.iterations=7 " +
                         "--set solver.iterations=9 --quiet --report=" + report());
    ASSERT_EQ(r.code, 0) << r.err;
    const nlohmann::json rep = nlohmann::json::parse(readFile(report()));
    EXPECT_EQ(rep["settings"]["solver"]["iterations"], 9);
    EXPECT_EQ(rep["run"]["steps"], 2) << rep["run"].dump();
    struct Case {
        std::string args, line;
    };
    for (const Case& c :
         {Case{"frob", "ndem: error: unknown command 'frob' (try `ndem --help`)\n"},
          Case{"bench --frob", "ndem: error: unknown option '--frob' (try `ndem bench --help`)\n"},
          Case{"keys extra", "ndem: error: unexpected argument 'extra' (try `ndem keys --help`)\n"},
          Case{"run " + f + " --steps", "ndem: error: --steps needs a value\n"},
          Case{"run " + f + " --report=", "ndem: error: --report needs a value\n"},
          Case{"sweep " + f + " --set solver.iterations=10, --steps 2",
               "ndem: error: --set solver.iterations=10,: empty value in the list\n"},
          Case{"validate --checkpoint-every 1e999",
               "ndem: error: --checkpoint-every 1e999: expected "
               "seconds of wall time > 0\n"}}) {
        const Result bad = run(c.args);
        EXPECT_EQ(bad.code, 2) << c.args;
        EXPECT_EQ(bad.err, c.line) << c.args;
        EXPECT_TRUE(bad.out.empty()) << bad.out;
    }
}

TEST_F(Cli, KeysListsEverySetting) {
    const Result r = run("keys");
    ASSERT_EQ(r.code, 0);
    for (const char* key : {"timeStep", "solver.iterations", "warmStart.beta", "impact.threshold",
                            "regularization.frictionCompliance", "contact.law"})
        EXPECT_NE(r.out.find(key), std::string::npos) << key;
}

}  // namespace

namespace {

TEST_F(Cli, BenchQuickPrintsTheFiguresAsJson) {
    const Result r = run("bench --quick");
    ASSERT_EQ(r.code, 0) << r.err;
    const nlohmann::json j = nlohmann::json::parse(r.out);
    EXPECT_GT(j["pgs"]["nsPerContactPerSweep"].get<double>(), 0.0);
    EXPECT_GT(j["collision"]["nsPerParticle"].get<double>(), 0.0);
    EXPECT_GT(j["stepsPerSecond"]["nit50"].get<double>(),
              j["stepsPerSecond"]["nit200"].get<double>());
    EXPECT_TRUE(j["machine"].contains("buildType"));
    EXPECT_TRUE(j["quick"].get<bool>());
    EXPECT_GT(j["scene"]["contacts"].get<double>(), 1000.0);
    EXPECT_TRUE(j["smooth"]["kernel"].is_string());
    EXPECT_GT(j["smooth"]["nsPerParticlePerStep"].get<double>(), 0.0);
    // The interior point converges on the resting bed and on the disks (associated rule); the
    // complementarity problem of the non-associated rule may stall, so only its cost is read.
    const nlohmann::json& ip = j["interiorPoint"];
    for (const nlohmann::json& series :
         {ip["bed"]["oneThread"], ip["bed"]["twoThreads"], ip["plane"]["associated"]}) {
        EXPECT_GT(series["newtonStepsPerStep"].get<double>(), 3.0) << series;
        EXPECT_LT(series["worstRelativeResidual"].get<double>(), 1e-6) << series;
        EXPECT_GT(series["nsPerContactPerNewtonStep"].get<double>(), 0.0) << series;
    }
    EXPECT_GT(ip["plane"]["nonAssociated"]["solveMsPerStep"].get<double>(), 0.0);
    EXPECT_GT(ip["bed"]["newtonStepOverPgsSweep"].get<double>(), 1.0);
}

}  // namespace

// --- Checkpoints (issue 16): exact restart through an HDF5 file, written atomically ---------

TEST_F(Cli, ACheckpointRestartGoesOnBitForBit) {
    const std::string silo = std::string(NDEM_SOURCE_DIR) + "/assets/scenes/silo.json";
    const std::string ck = (m_dir / "silo.h5").string();
    auto hash = [&](const Result& r) {
        EXPECT_EQ(r.code, 0) << r.err;
        const size_t at = r.out.find("state hash");
        return at == std::string::npos ? std::string() : r.out.substr(at + 14, 16);
    };
    const std::string straight =
        hash(run("run " + silo + " --set particles.0.count=400 --steps 60 --quiet"));
    ASSERT_EQ(straight.size(), 16u);
    hash(run("run " + silo + " --set particles.0.count=400 --steps 30 --checkpoint " + ck +
             " --quiet"));
    ASSERT_TRUE(fs::exists(ck));
    EXPECT_FALSE(fs::exists(ck + ".writing"));
    EXPECT_EQ(hash(run("run --restart " + ck + " --steps 30 --threads 1 --quiet")), straight);

    // Every 0.1 s: the file holds the last multiple; the rest of the scene's duration follows.
    const Result every =
        run("run " + silo + " --set particles.0.count=400 --set duration=0.55 --checkpoint " + ck +
            " --checkpoint-every 0.1 --steps 25 --quiet");
    ASSERT_EQ(every.code, 0) << every.err;
    const Result rest = run("run --restart " + ck + " --report " + report() + " --quiet");
    ASSERT_EQ(rest.code, 0) << rest.err;
    const nlohmann::json j = nlohmann::json::parse(readFile(report()));
    EXPECT_EQ(j["run"]["steps"], 30);  // from 0.25 s (the end of the first run) to 0.55 s
}

TEST_F(Cli, BadCheckpointInputIsOneLineAndWritesNothing) {
    const std::string f = scene("s.json", kScene);
    expectBadInput("run --restart " + (m_dir / "none.h5").string(),
                   {"none.h5", "no such checkpoint"});
    expectBadInput("run --restart " + f, {"s.json", "not a checkpoint"});
    expectBadInput("run " + f + " --restart " + f, {"not both"});
    expectBadInput("run " + f + " --checkpoint-every 1",
                   {"--checkpoint-every goes with --checkpoint"});
    expectBadInput("run " + f + " --checkpoint " + (m_dir / "no" / "c.h5").string(),
                   {"--checkpoint", "does not exist"});
    expectBadInput(
        "run " + f + " --checkpoint " + (m_dir / "c.h5").string() + " --checkpoint-every 0",
        {"--checkpoint-every 0"});
    ASSERT_EQ(
        run("run " + f + " --steps 5 --checkpoint " + (m_dir / "c.h5").string() + " --quiet").code,
        0);
    expectBadInput("run --restart " + (m_dir / "c.h5").string() + " --set solver.iterations=5",
                   {"solver.iterations", "only --threads"});
}

TEST_F(Cli, ADamagedCheckpointIsRefusedBeforeHdf5ReadsIt) {
    const std::string f = scene("s.json", kScene);
    const std::string good = (m_dir / "c.h5").string();
    ASSERT_EQ(run("run " + f + " --steps 5 --checkpoint " + good + " --quiet").code, 0);
    const std::string bytes = readFile(good);
    ASSERT_GT(bytes.size(), 1024u);
    EXPECT_EQ(bytes.rfind("NDEM checkpoint\npayload ", 0), 0u) << "a header line anyone can read";
    auto damaged = [&](const std::string& name, const std::string& content) {
        const fs::path p = m_dir / name;
        std::ofstream(p, std::ios::binary) << content;
        return "run --restart " + p.string();
    };
    expectBadInput(damaged("cut.h5", bytes.substr(0, bytes.size() - 100)),
                   {"cut.h5", "damaged checkpoint", "cut short"});
    std::string flipped = bytes;
    flipped[bytes.size() / 2] ^= 0x40;
    expectBadInput(damaged("flipped.h5", flipped), {"flipped.h5", "checksum does not match"});
    expectBadInput(damaged("headless.h5", bytes.substr(512)), {"headless.h5", "not a checkpoint"});
    std::string garbled = bytes;
    garbled.replace(24, 8, "xxxxxxxx");
    expectBadInput(damaged("garbled.h5", garbled), {"garbled.h5", "damaged checkpoint"});
    EXPECT_EQ(run("run --restart " + good + " --steps 1 --quiet").code, 0)
        << "the intact one still reads";
}

TEST_F(Cli, ADivergingRunLeavesTheLastGoodCheckpointAsItWas) {
    const std::string f = scene("s.json", kScene);
    const std::string ck = (m_dir / "c.h5").string();
    ASSERT_EQ(run("run " + f + " --steps 10 --checkpoint " + ck + " --quiet").code, 0);
    const std::string good = readFile(ck);
    const Result r =
        run("run " + f + " --steps 50 --set settings.gravity=[0,0,-1e308] --checkpoint " + ck +
            " --checkpoint-every 0.001 --quiet");
    EXPECT_EQ(r.code, 3) << r.err;
    EXPECT_EQ(readFile(ck), good);
    EXPECT_EQ(run("run --restart " + ck + " --steps 1 --quiet").code, 0);
}

TEST_F(Cli, AKillDuringCheckpointingLeavesAReadableCheckpoint) {
    // A checkpoint every step of a long run, killed with SIGKILL at some point of it: the file
    // under the name is always a whole checkpoint (written beside it, then renamed).
    const std::string silo = std::string(NDEM_SOURCE_DIR) + "/assets/scenes/silo.json";
    const std::string ck = (m_dir / "k.h5").string();
    // The kill comes a while after the first checkpoint appears, not at a fixed time: on a
    // loaded machine the scene took longer than 0.4 s to reach its first one.
    for (const char* delay : {"0.05", "0.3"}) {
        fs::remove(ck);  // each run waits for its own first checkpoint
        const std::string cmd = "sh -c '" + std::string(NDEM_CLI) + " run " + silo +
                                " --set particles.0.count=300 --steps 100000 --checkpoint " + ck +
                                " --checkpoint-every 0.01 --quiet >/dev/null 2>&1 & pid=$!; " +
                                "for i in $(seq 600); do [ -e " + ck +
                                " ] && break; sleep 0.05; done; sleep " + delay +
                                "; kill -9 $pid; wait $pid' >/dev/null 2>&1";
        std::system(cmd.c_str());
        ASSERT_TRUE(fs::exists(ck)) << "no checkpoint " << delay << " s after the first";
        const Result r = run("run --restart " + ck + " --steps 2 --quiet");
        EXPECT_EQ(r.code, 0) << r.err;
    }
}

namespace {

TEST_F(Cli, FclibExportsAStepAndSolvesItWithEitherSolver) {
    const std::string s = scene("s.json", kScene);
    const std::string file = (m_dir / "step.hdf5").string();
    const Result e = run("fclib export " + s + " --step 20 " + file);
    ASSERT_EQ(e.code, 0) << e.err;
    const auto exported = nlohmann::json::parse(e.out);
    EXPECT_EQ(exported["contacts"], 3);  // the column: floor and two pairs
    for (const std::string solver : {"pgs", "interior-point"}) {
        const Result r = run("fclib solve " + file + " --solver " + solver +
                             " --tolerance 1e-9 --out " + (m_dir / "sol.hdf5").string());
        ASSERT_EQ(r.code, 0) << r.err;
        const auto j = nlohmann::json::parse(r.out);
        EXPECT_EQ(j["contacts"], 3);
        EXPECT_LE(j["error"].get<double>(), 1e-9) << solver;
        EXPECT_TRUE(j["converged"].get<bool>()) << solver;
        EXPECT_GT(j["iterations"].get<int>(), 0);
        EXPECT_TRUE(fs::exists(m_dir / "sol.hdf5"));
    }
    // The null-space solvers (Alart 2014): a column has no self-equilibrated network, so
    // W + omega Z is W and they answer Coulomb's problem as NLGS does.
    for (const std::string solver : {"nlgs", "nlkergs-i", "nlkergs-p", "nlgs-jac"}) {
        const Result r = run("fclib solve " + file + " --solver " + solver +
                             " --prediction unilateral --tolerance 1e-10");
        ASSERT_EQ(r.code, 0) << r.err;
        const auto j = nlohmann::json::parse(r.out);
        EXPECT_LE(j["error"].get<double>(), 1e-8) << solver;
    }
}

TEST_F(Cli, FclibBadFilesAndFlagsAreOneLineAndExitTwo) {
    const std::string text = scene("text.hdf5", "not hdf5\n");
    for (const std::string& args :
         {"fclib solve " + text, "fclib solve " + (m_dir / "missing.hdf5").string(),
          "fclib solve " + text + " --solver lemke", "fclib solve " + text + " --tolerance -1",
          "fclib solve " + text + " --solver nlgs-jac --prediction elastic",
          "fclib export " + scene("s.json", kScene) + " --step 0 " + (m_dir / "o.hdf5").string(),
          "fclib export " + scene("s2.json", kScene) + " --step 3 " +
              (m_dir / "no/dir/o.hdf5").string()}) {
        const Result r = run(args);
        EXPECT_EQ(r.code, 2) << args << "\n" << r.err;
        EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << args << "\n" << r.err;
        EXPECT_EQ(r.err.rfind("ndem: error: ", 0), 0u) << r.err;
    }
    EXPECT_FALSE(fs::exists(m_dir / "o.hdf5"));
}

}  // namespace
