// Every setting key: the step's own (core/settings.hpp), then each registered settings block
// (solve/method/solver_registry.hpp), in one visit. The single list that scene files, --set,
// checkpoints, validation, `ndem keys`, the docs and the app read.
#pragma once

#include "core/settings.hpp"
#include "solve/method/solver_registry.hpp"

#include <optional>
#include <string>
#include <type_traits>
#include <vector>

namespace ndem {

/// Visits every setting with (info, field) — double, int, bool, Vec3 — or (info, index, names)
/// for a choice (enums and solver.method).
template <class S, class V>
void visitSettings(S& s, V&& v) {
    const SolverRegistry& registry = SolverRegistry::instance();
    visitStepSettings(s, v, registry.names());
    SettingVisitorFor<std::remove_reference_t<V>> erased(v);
    for (const SettingsBlockInfo& b : registry.blocks()) {
        if constexpr (std::is_const_v<S>) {
            // Read only: a copy of the block, or its defaults where none was set.
            const SettingsBlock* set = s.solverBlocks.find(b.name);
            const std::unique_ptr<SettingsBlock> copy = set ? set->clone() : b.make();
            copy->visit(erased);
        } else {
            s.solverBlocks.edit(b.name, b.make).visit(erased);
        }
    }
}

/// Checks every field against its range and the keys against each other (a block's own check,
/// the static formulation against the method). The error names the key and the value.
std::optional<Error> validate(const StepSettings& s);

/// The keys of the settings blocks that `method` does not read (the app hides them).
std::vector<const char*> keysOfOtherMethods(const std::string& method);

/// Copies the settings named by `keys` (visitSettings keys) from `from` into `to`.
void copySettings(const StepSettings& from, StepSettings& to, const std::vector<std::string>& keys);

}  // namespace ndem
