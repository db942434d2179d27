#include "io/command_line.hpp"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <memory>

namespace ndem::cmdline {

namespace {

/// Help as the tools write it: the synopsis first, then what the command does, its options, and
/// the footer; a command list shows each command's synopsis over its description.
class Layout final : public CLI::Formatter {
  public:
    explicit Layout(std::string synopsis) : m_synopsis(std::move(synopsis)) {
        column_width(30);
        label("Positionals", "arguments");
        label("Subcommands", "commands");
    }

    const std::string& synopsis() const { return m_synopsis; }

    std::string make_help(const CLI::App* app, std::string,
                          CLI::AppFormatMode mode) const override {
        if (mode == CLI::AppFormatMode::Sub) return make_expanded(app);
        std::string out = "usage: " + m_synopsis + "\n";
        if (!app->get_description().empty()) out += "\n" + app->get_description() + "\n";
        out += make_positionals(app) + make_groups(app, mode) + make_subcommands(app, mode);
        if (!app->get_footer().empty()) out += "\n" + app->get_footer();
        return out;
    }

    std::string make_subcommand(const CLI::App* sub) const override {
        const auto layout = std::dynamic_pointer_cast<Layout>(sub->get_formatter());
        std::string out = "  " + (layout ? layout->synopsis() : sub->get_name()) + "\n";
        std::string text = sub->get_description();  // its first sentence
        std::replace(text.begin(), text.end(), '\n', ' ');
        const size_t end = text.find(". ");
        out += "      " + text.substr(0, end == std::string::npos ? end : end + 1) + "\n";
        return out;
    }

  private:
    std::string m_synopsis;
};

bool isHelpFlag(const std::string& a) {
    return a == "-h" || a == "--help";
}

/// The command the arguments selected, deepest first: its remaining arguments and its name.
const CLI::App* selected(const CLI::App& app) {
    const CLI::App* at = &app;
    for (;;) {
        const std::vector<CLI::App*> subs = at->get_subcommands();
        if (subs.empty()) return at;
        at = subs.front();
    }
}

std::string fullName(const CLI::App* app) {
    std::string name = app->get_name();
    for (const CLI::App* p = app->get_parent(); p; p = p->get_parent())
        name = p->get_name() + " " + name;
    return name;
}

/// CLI11's words for a value that is missing, in the tools' words; the rest as CLI11 says it.
std::string describe(const CLI::ParseError& e) {
    const std::string what = e.what();
    if (dynamic_cast<const CLI::ArgumentMismatch*>(&e) &&
        what.find(" missing") != std::string::npos)
        return what.substr(0, what.find(':')) + " needs a value";
    if (dynamic_cast<const CLI::ArgumentMismatch*>(&e))
        return what.substr(0, what.find(':')) + ": expected one value";
    return what;
}

}  // namespace

void configure(CLI::App& app, const std::string& synopsis, const std::string& footer) {
    app.formatter(std::make_shared<Layout>(synopsis));
    app.footer(footer);
    app.allow_extras(true);
    app.option_defaults()->group("options");
    app.set_help_flag("-h,--help", "this help");
}

CLI::App* addCommand(CLI::App& parent, const std::string& name, const std::string& synopsis,
                     const std::string& description, const std::string& footer) {
    CLI::App* app = parent.add_subcommand(name, description);
    configure(*app, synopsis, footer);
    app->group("commands");
    return app;
}

Outcome parse(CLI::App& app, const std::vector<std::string>& args) {
    const auto end = std::find(args.begin(), args.end(), "--");
    const bool helpAsked = std::any_of(args.begin(), end, isHelpFlag);
    std::vector<std::string> reversed(args.rbegin(), args.rend());  // CLI11 pops from the back
    try {
        app.parse(reversed);
    } catch (const CLI::ParseError& e) {
        if (helpAsked || dynamic_cast<const CLI::CallForHelp*>(&e)) return {app.help(), ""};
        return {"", describe(e)};
    }
    if (helpAsked) return {app.help(), ""};
    const CLI::App* command = selected(app);
    const std::vector<std::string> extra = command->remaining();
    if (extra.empty()) return {};
    const std::string& first = extra.front();
    const std::string hint = " (try `" + fullName(command) + " --help`)";
    if (!first.empty() && first[0] == '-') return {"", "unknown option '" + first + "'" + hint};
    if (command == &app && !app.get_subcommands([](CLI::App*) { return true; }).empty())
        return {"", "unknown command '" + first + "'" + hint};
    return {"", "unexpected argument '" + first + "'" + hint};
}

std::string refused(const std::string& flag, const std::string& value, const std::string& what) {
    return flag + " " + value + ": expected " + what;
}

namespace {

/// The long name of "--colour,--color" or "-q,--quiet": what the errors call the flag.
std::string longName(const std::string& flags) {
    size_t at = flags.find("--");
    if (at == std::string::npos) at = 0;
    return flags.substr(at, flags.find(',', at) - at);
}

CLI::Option* add(CLI::App& app, const std::string& flags, const std::string& valueName,
                 const std::string& help, Take take) {
    const std::string flag = longName(flags);
    auto each = [take, flag](const std::vector<std::string>& values) {
        for (const std::string& v : values)
            if (auto error = take(v)) throw CLI::ValidationError(*error);
    };
    return app.add_option_function<std::vector<std::string>>(flags, each, help)
        ->expected(1)
        ->allow_extra_args(false)
        ->type_name(valueName);
}

}  // namespace

CLI::Option* addValue(CLI::App& app, const std::string& flag, const std::string& valueName,
                      const std::string& help, Take take) {
    return add(app, flag, valueName, help, std::move(take))
        ->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
}

CLI::Option* addRepeated(CLI::App& app, const std::string& flag, const std::string& valueName,
                         const std::string& help, Take take) {
    return add(app, flag, valueName, help, std::move(take))
        ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
}

CLI::Option* addPath(CLI::App& app, const std::string& flag, const std::string& valueName,
                     const std::string& help, std::string& target) {
    const std::string name = longName(flag);
    return addValue(app, flag, valueName, help,
                    [&target, name](const std::string& v) -> std::optional<std::string> {
                        if (v.empty()) return name + " needs a value";
                        target = v;
                        return std::nullopt;
                    });
}

void addOverrides(CLI::App& app, std::vector<Override>& overrides) {
    addRepeated(app, "--set", "KEY=VALUE", "override any key of the scene file (see `ndem keys`)",
                [&overrides](const std::string& v) -> std::optional<std::string> {
                    Expected<Override> parsed = parseOverride(v);
                    if (!parsed) return parsed.error().message;
                    overrides.push_back(*parsed);
                    return std::nullopt;
                });
    addValue(app, "--threads", "N", "step with N threads, 1 to 1024 (default: every core)",
             [&overrides](const std::string& v) -> std::optional<std::string> {
                 Expected<Override> parsed = parseThreadsFlag(v);
                 if (!parsed) return parsed.error().message;
                 overrides.push_back(*parsed);
                 return std::nullopt;
             });
}

std::optional<long> wholeNumber(const std::string& text, long min, long max) {
    // Twelve digits at most: strtol cannot overflow, and no count here is larger.
    if (text.empty() || text.size() > 12) return std::nullopt;
    for (char c : text)
        if (c < '0' || c > '9') return std::nullopt;
    const long v = std::strtol(text.c_str(), nullptr, 10);
    return v >= min && v <= max ? std::optional<long>(v) : std::nullopt;
}

std::optional<double> finiteNumber(const std::string& text) {
    if (text.empty() || std::isspace(static_cast<unsigned char>(text[0]))) return std::nullopt;
    char* end = nullptr;
    errno = 0;
    const double v = std::strtod(text.c_str(), &end);
    if (end != text.c_str() + text.size() || errno == ERANGE || !std::isfinite(v))
        return std::nullopt;
    return v;
}

}  // namespace ndem::cmdline
