// The documentation names every setting and measurement the engine knows, so the docs cannot
// fall behind the code.
#include "measure/measurements.hpp"
#include "solve/settings_keys.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

namespace ndem {
namespace {

std::string sceneFormatDoc() {
    std::ifstream in(NDEM_SOURCE_DIR "/docs/scene-format.md");
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

struct KeyCollector {
    std::vector<std::string> keys;
    template <class T>
    void operator()(const SettingInfo& i, const T&) {
        keys.push_back(i.key);
    }
    void operator()(const SettingInfo& i, const int&, ChoiceNames) { keys.push_back(i.key); }
};

TEST(Docs, SceneFormatDocumentsEverySettingKey) {
    const std::string doc = sceneFormatDoc();
    ASSERT_FALSE(doc.empty());
    KeyCollector c;
    const StepSettings defaults;
    visitSettings(defaults, c);
    EXPECT_GT(c.keys.size(), 20u);
    for (const std::string& k : c.keys)
        EXPECT_NE(doc.find("`" + k + "`"), std::string::npos) << "undocumented setting " << k;
}

TEST(Docs, SceneFormatDocumentsEveryMeasurement) {
    const std::string doc = sceneFormatDoc();
    for (const MeasurementFactory* f : measurementFactories()) {
        EXPECT_NE(doc.find(std::string("`") + f->type + "`"), std::string::npos) << f->type;
        for (const MeasurementParameter& p : f->parameters)
            EXPECT_NE(doc.find(std::string("`") + p.name + "`"), std::string::npos)
                << f->type << "." << p.name;
    }
}

}  // namespace
}  // namespace ndem
