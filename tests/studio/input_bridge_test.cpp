// Injected Qt input reaches ImGui, and what the panel changes is what the sim thread steps with.
#include "studio_support.hpp"

#include "gui/main_window.hpp"

#include <QTest>

#include <glm/glm.hpp>

#include <gtest/gtest.h>

namespace ndem::test {
namespace {

using app::MainWindow;
using app::StudioOptions;

class InputBridge : public ::testing::Test {
  protected:
    void SetUp() override {
        studioApp();
        StudioOptions options;
        options.width = 1200;
        options.height = 1000;
        options.paused = true;  // every publish below is the effect of our input
        m_window = std::make_unique<MainWindow>(options);
        ASSERT_TRUE(m_window->openScene(QString(NDEM_SOURCE_DIR) + "/assets/scenes/silo.json",
                                        {{"particles.0.count", "300"}}));
        m_window->show();
        ASSERT_TRUE(QTest::qWaitForWindowExposed(m_window.get()));
        // Paused, the viewport paints only when asked: ask until the panels have been laid out.
        ASSERT_TRUE(QTest::qWaitFor(
            [&] {
                view().update();
                return view().framesDrawn() >= 3 && view().snapshot() &&
                       view().snapshot()->sequence > 0;
            },
            10000));
    }
    void TearDown() override { m_window.reset(); }

    app::Viewport& view() { return m_window->viewport(); }
    const app::Snapshot& snap() { return *view().snapshot(); }

    /// A point on the left of a setting widget the panels reported: a checkbox's box, or the
    /// text of an input field (the centre of an InputInt is its "+" button).
    QPoint widget(const std::string& key) {
        const auto& rects = view().panels().itemRects;
        const auto it = rects.find(key);
        EXPECT_NE(it, rects.end()) << key << " not drawn";
        if (it == rects.end()) return {};
        const auto& r = it->second;
        const float x = r[0] + 10.0f;
        return QPoint(static_cast<int>(x), static_cast<int>(0.5f * (r[1] + r[3])));
    }

    /// Waits until the sim thread publishes a snapshot for which `pred` holds.
    template <class Pred>
    bool waitForSnapshot(Pred pred) {
        return QTest::qWaitFor(
            [&] {
                view().update();
                return pred(snap());
            },
            10000);
    }

    std::unique_ptr<MainWindow> m_window;
};

TEST_F(InputBridge, ClickingWarmStartInThePanelChangesTheEngineSetting) {
    const bool before = snap().settings.warmStart;
    // Press and release in one event-loop turn: ImGui 1.86 would lose it without the queue.
    QTest::mouseClick(&view(), Qt::LeftButton, {}, widget("warmStart.enabled"));
    EXPECT_TRUE(
        waitForSnapshot([&](const app::Snapshot& s) { return s.settings.warmStart != before; }));
    QTest::mouseClick(&view(), Qt::LeftButton, {}, widget("warmStart.enabled"));
    EXPECT_TRUE(
        waitForSnapshot([&](const app::Snapshot& s) { return s.settings.warmStart == before; }));
}

TEST_F(InputBridge, TypingIterationsAppliesOnEnter) {
    QTest::mouseClick(&view(), Qt::LeftButton, {}, widget("solver.iterations"));
    QTest::qWait(100);
    QTest::keyClick(&view(), Qt::Key_A, Qt::ControlModifier);
    QTest::qWait(50);
    QTest::keyClicks(&view(), "37");
    QTest::qWait(50);
    QTest::keyClick(&view(), Qt::Key_Return);
    EXPECT_TRUE(waitForSnapshot([](const app::Snapshot& s) { return s.settings.iterations == 37; }))
        << "iterations are " << snap().settings.iterations;
}

TEST_F(InputBridge, AnOutOfRangeTimeStepIsRefusedWithAMessageAndNeverReachesTheEngine) {
    const double before = snap().settings.timeStep;
    QTest::mouseClick(&view(), Qt::LeftButton, {}, widget("timeStep"));
    QTest::qWait(100);
    QTest::keyClick(&view(), Qt::Key_A, Qt::ControlModifier);
    QTest::qWait(50);
    QTest::keyClicks(&view(), "-1");
    QTest::qWait(50);
    QTest::keyClick(&view(), Qt::Key_Return);
    EXPECT_TRUE(QTest::qWaitFor(
        [&] {
            view().update();
            return view().panels().message.find("refused: settings.timeStep") != std::string::npos;
        },
        10000))
        << view().panels().message;
    QTest::qWait(200);
    EXPECT_EQ(snap().settings.timeStep, before);
}

TEST_F(InputBridge, DragsOnThePanelsStayThereDragsOutsideTurnTheCameraAndSpacePlays) {
    auto drag = [&](QPoint from, QPoint to) {
        QTest::mousePress(&view(), Qt::LeftButton, {}, from);
        for (int k = 1; k <= 5; ++k) {
            QTest::mouseMove(&view(), from + (to - from) * k / 5);
            QTest::qWait(20);
        }
        QTest::mouseRelease(&view(), Qt::LeftButton, {}, to);
        QTest::qWait(50);
    };
    // On the Simulation panel's empty lower part: ImGui takes it, the camera stays.
    const float yaw0 = view().camera().yaw;
    const auto& sim = view().panels().panelRects.at("Simulation");
    const QPoint inPanel(static_cast<int>(sim[0] + 150), static_cast<int>(sim[3] - 20));
    drag(inPanel, inPanel + QPoint(60, 0));
    EXPECT_FLOAT_EQ(view().camera().yaw, yaw0);
    // In the free middle of the view: the camera turns.
    drag(QPoint(700, 600), QPoint(780, 600));
    EXPECT_NE(view().camera().yaw, yaw0);

    const std::uint64_t published = m_window->session().loop().publishedCount();
    QTest::keyClick(&view(), Qt::Key_Space);
    EXPECT_TRUE(QTest::qWaitFor(
        [&] { return m_window->session().loop().publishedCount() > published + 3; }, 10000));
    EXPECT_TRUE(m_window->session().loop().isPlaying());
}

TEST_F(InputBridge, DraggingASplitSensorMovesItInTheEngineAndAnAxisKeyLocksTheDirection) {
    app::Session& session = m_window->session();
    const Vec3 centre(0.0, 0.0, 0.1);
    session.addSensor(SensorShape::Sphere, centre, 0.06);
    ASSERT_TRUE(waitForSnapshot([](const app::Snapshot& s) { return s.sensors.size() == 1; }));
    auto screenOf = [&](const Vec3& x) {
        const glm::mat4 m = view().camera().projection(static_cast<float>(view().width()) /
                                                       static_cast<float>(view().height())) *
                            view().camera().view();
        const glm::vec4 c = m * glm::vec4(x.x(), x.y(), x.z(), 1.0f);
        return QPoint(static_cast<int>((0.5f * c.x / c.w + 0.5f) * view().width()),
                      static_cast<int>((0.5f - 0.5f * c.y / c.w) * view().height()));
    };
    auto drag = [&](QPoint from, QPoint to) {
        QTest::mousePress(&view(), Qt::LeftButton, {}, from);
        for (int k = 1; k <= 5; ++k) {
            QTest::mouseMove(&view(), from + (to - from) * k / 5);
            QTest::qWait(20);
        }
        QTest::mouseRelease(&view(), Qt::LeftButton, {}, to);
        QTest::qWait(50);
    };
    const float yaw0 = view().camera().yaw;
    const QPoint at = screenOf(centre);
    drag(at, at + QPoint(60, 0));
    EXPECT_EQ(view().panels().selectedSensor, 0) << "the click did not grab the sensor";
    EXPECT_FLOAT_EQ(view().camera().yaw, yaw0) << "grabbing a sensor must not turn the camera";
    ASSERT_TRUE(waitForSnapshot([&](const app::Snapshot& s) {
        return !s.sensors.empty() && (s.sensors[0].position - centre).norm() > 0.005;
    })) << "the sensor did not move in the engine";
    const Vec3 moved = snap().sensors[0].position;
    EXPECT_EQ(moved, session.sensors()[0].position);  // the scene keeps it for reset and save
    // 60 px right on the screen: mostly sideways, at the same height.
    EXPECT_NEAR(moved.z(), centre.z(), 0.01);

    // Z held: straight up, x and y stay.
    QTest::keyPress(&view(), Qt::Key_Z);
    const QPoint now = screenOf(moved);
    drag(now, now + QPoint(20, -60));
    QTest::keyRelease(&view(), Qt::Key_Z);
    ASSERT_TRUE(waitForSnapshot([&](const app::Snapshot& s) {
        return !s.sensors.empty() && s.sensors[0].position.z() > moved.z() + 0.005;
    })) << "the sensor did not move up";
    EXPECT_NEAR(snap().sensors[0].position.x(), moved.x(), 1e-9);
    EXPECT_NEAR(snap().sensors[0].position.y(), moved.y(), 1e-9);
}

}  // namespace
}  // namespace ndem::test
