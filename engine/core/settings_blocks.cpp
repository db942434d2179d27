#include "core/settings_blocks.hpp"

namespace ndem {

const SettingsBlock* SettingsBlocks::find(std::string_view name) const {
    for (const auto& b : m_blocks)
        if (name == b->name()) return b.get();
    return nullptr;
}

SettingsBlock& SettingsBlocks::edit(std::string_view name, const Make& make) {
    for (auto& b : m_blocks) {
        if (name != b->name()) continue;
        // Copy on write: another StepSettings still reads this one.
        if (b.use_count() > 1) b = std::shared_ptr<SettingsBlock>(b->clone());
        return *b;
    }
    m_blocks.push_back(std::shared_ptr<SettingsBlock>(make()));
    return *m_blocks.back();
}

}  // namespace ndem
