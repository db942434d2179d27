// The contact solvers' own settings, held by StepSettings without core/ knowing them: each
// family declares a block of keys in its folder (solve/method/solver_registry.hpp registers it) and
// reads its block back by type. A block nobody set reads as its defaults.
#pragma once

#include "core/error.hpp"
#include "core/setting_visitor.hpp"

#include <functional>
#include <memory>
#include <optional>
#include <string_view>
#include <vector>

namespace ndem {

/// One block of keys, type-erased.
class SettingsBlock {
  public:
    virtual ~SettingsBlock() = default;
    virtual const char* name() const = 0;
    virtual std::unique_ptr<SettingsBlock> clone() const = 0;
    virtual void visit(SettingVisitor& v) = 0;
    /// Consistency between the block's own keys; the error names the key.
    virtual std::optional<Error> check() const = 0;
};

/// A block of type T: T names it (static constexpr const char* kBlock), visits its keys
/// (template <class S, class V> static void visit(S&, V&&), S being T or const T) and may check
/// them (std::optional<Error> check() const).
template <class T>
class SettingsBlockOf final : public SettingsBlock {
  public:
    T value;
    const char* name() const override { return T::kBlock; }
    std::unique_ptr<SettingsBlock> clone() const override {
        return std::make_unique<SettingsBlockOf>(*this);
    }
    void visit(SettingVisitor& v) override { T::visit(value, v); }
    std::optional<Error> check() const override {
        if constexpr (requires { value.check(); })
            return value.check();
        else
            return std::nullopt;
    }
};

/// The blocks of one StepSettings. Copies share each block until one of them writes to it
/// (settings are copied every step, blocks are written between runs).
class SettingsBlocks {
  public:
    using Make = std::function<std::unique_ptr<SettingsBlock>()>;

    /// The block T as set here, or T's defaults.
    template <class T>
    const T& get() const {
        if (const auto* b = dynamic_cast<const SettingsBlockOf<T>*>(find(T::kBlock)))
            return b->value;
        static const T defaults{};
        return defaults;
    }
    /// The block T to write into (this object's own copy, T's defaults where it had none).
    template <class T>
    T& edit() {
        SettingsBlock& b = edit(T::kBlock, [] { return std::make_unique<SettingsBlockOf<T>>(); });
        return dynamic_cast<SettingsBlockOf<T>&>(b).value;
    }
    const SettingsBlock* find(std::string_view name) const;
    /// The block `name` to write into, made by `make` where this object has none.
    SettingsBlock& edit(std::string_view name, const Make& make);

  private:
    std::vector<std::shared_ptr<SettingsBlock>> m_blocks;
};

}  // namespace ndem
