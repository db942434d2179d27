// The contact solvers by name (LAMMPS' styles: a method is one folder and one registration line,
// and nothing else knows the list). solver.method, the app's Solver panel, `ndem run`'s summary,
// `ndem fclib solve --solver`, the solver race and `ndem keys` all look methods up here; each
// family registers its own settings block, whose keys leave core/settings.hpp.
#pragma once

#include "core/setting_visitor.hpp"
#include "core/settings_blocks.hpp"
#include "solve/method/contact_solver.hpp"

#include <deque>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace ndem {

/// What the registry knows of a method.
struct SolverInfo {
    std::string name;     ///< its solver.method
    std::string summary;  ///< one line: what it is, with its reference key (docs/references.md)
    const char* iterationUnit = "sweeps";  ///< what SolveReport::iterations counts
    const char* residualName = "";         ///< what SolveReport::residual measures
    std::vector<std::string> blocks;       ///< the settings blocks it reads (by their kBlock)
    bool staticForm = false;  ///< answers the static formulation's problem (solver.formulation)
    /// The accuracy the conformance suite holds it to (tests/engine/solver_conformance_test.cpp),
    /// at the budget `conformanceIterations` (0: 5000 sweeps or 100 Newton steps): on small
    /// problems with an answer known on paper, the impulses' error relative to the load; on a
    /// bed at rest against Siconos' answer, the normal impulses' error weighted by the load.
    double accuracy = 1e-6;
    double packingAccuracy = 1e-6;
    int conformanceIterations = 0;
    /// The budget of a local solve where none is given (`ndem fclib solve`).
    int localIterations = 10000;
    std::function<std::unique_ptr<ContactSolver>()> make;
};

/// A settings block type the registry makes and visits: defaults and the keys' order.
struct SettingsBlockInfo {
    std::string name;
    SettingsBlocks::Make make;
};

class SolverRegistry {
  public:
    /// The methods and blocks of the engine (solve/builtin_solvers.cpp), and any added since.
    static SolverRegistry& instance();

    void add(SolverInfo info);
    template <class T>
    void addBlock() {
        addBlock(
            SettingsBlockInfo{T::kBlock, [] { return std::make_unique<SettingsBlockOf<T>>(); }});
    }
    void addBlock(SettingsBlockInfo block);

    const SolverInfo* find(std::string_view name) const;
    const std::deque<SolverInfo>& solvers() const { return m_solvers; }
    const std::vector<SettingsBlockInfo>& blocks() const { return m_blocks; }
    /// Every method's name, in registration order (solver.method's choices).
    ChoiceNames names() const { return m_names; }

  private:
    SolverRegistry() = default;
    std::deque<SolverInfo> m_solvers;  ///< a deque: names stay where they are
    std::vector<const char*> m_names;
    std::vector<SettingsBlockInfo> m_blocks;
};

/// Registers a method: the one line a new method adds (solve/builtin_solvers.cpp), or a test's.
inline void registerSolver(SolverInfo info) {
    SolverRegistry::instance().add(std::move(info));
}
/// The method `name`, or nullptr.
inline const SolverInfo* findSolver(std::string_view name) {
    return SolverRegistry::instance().find(name);
}

}  // namespace ndem
