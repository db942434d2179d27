#include "solve/method/solver_registry.hpp"

#include <algorithm>

namespace ndem {

/// The engine's own methods (solve/builtin_solvers.cpp).
void registerBuiltinSolvers(SolverRegistry& registry);

SolverRegistry& SolverRegistry::instance() {
    // Built on first use, with the engine's methods first: a method a test or a program adds
    // later comes after them (the index of a method is what a checkpoint stores).
    static SolverRegistry* const registry = [] {
        auto* r = new SolverRegistry;
        registerBuiltinSolvers(*r);
        return r;
    }();
    return *registry;
}

void SolverRegistry::add(SolverInfo info) {
    // A name registered again replaces the method it named (a test's stand-in).
    auto same = std::find_if(m_solvers.begin(), m_solvers.end(),
                             [&](const SolverInfo& s) { return s.name == info.name; });
    if (same != m_solvers.end())
        *same = std::move(info);
    else
        m_solvers.push_back(std::move(info));
    m_names.clear();
    for (const SolverInfo& s : m_solvers)
        m_names.push_back(s.name.c_str());
}

void SolverRegistry::addBlock(SettingsBlockInfo block) {
    for (SettingsBlockInfo& b : m_blocks)
        if (b.name == block.name) {
            b = std::move(block);
            return;
        }
    m_blocks.push_back(std::move(block));
}

const SolverInfo* SolverRegistry::find(std::string_view name) const {
    for (const SolverInfo& s : m_solvers)
        if (s.name == name) return &s;
    return nullptr;
}

}  // namespace ndem
