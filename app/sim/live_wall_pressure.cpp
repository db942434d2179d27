#include "sim/live_wall_pressure.hpp"

#include "core/scene.hpp"
#include "measure/measurements.hpp"

#include <cmath>

namespace ndem::app {

namespace {

void copyResult(const MeasurementResult& r, double windowTime, WallPressureProfile& out) {
    auto column = [&](const char* name, std::vector<float>& to) {
        to.clear();
        const auto table = r.tables.find("profile");
        if (table == r.tables.end()) return;
        const auto col = table->second.find(name);
        if (col == table->second.end()) return;
        to.assign(col->second.begin(), col->second.end());
    };
    column("depth", out.depth);
    column("pressure", out.pressure);
    column("hydrostatic", out.hydrostatic);
    column("janssen", out.janssen);
    auto scalar = [&](const char* name) {
        const auto it = r.scalars.find(name);
        return it == r.scalars.end() ? 0.0 : it->second;
    };
    out.pSat = scalar("pSat");
    out.lambda = scalar("lambda");
    out.janssenK = scalar("janssenK");
    out.fillHeight = scalar("fillHeight");
    out.windowTime = windowTime;
}

}  // namespace

void LiveWallPressure::attach(const World& world) {
    m_wall.clear();
    m_running.reset();
    m_haveComplete = false;
    m_complete = WallPressureProfile{};
    for (const Wall& w : world.walls())
        // A silo stands upright and stays still; a drum's shell is no Janssen wall.
        if (w.shape == WallShape::Cylinder && w.enabled && w.angularVelocity.isZero() &&
            std::abs((w.orientation * Vec3::UnitZ()).z()) > 0.9) {
            m_wall = w.name;
            break;
        }
    if (!m_wall.empty()) restart(world);
}

void LiveWallPressure::restart(const World& world) {
    MeasurementRequest request;
    request.type = "wallPressure";
    request.words.emplace_back("wall", m_wall);
    auto made = makeMeasurement(request, world);
    m_running = made ? std::move(made.value()) : nullptr;
    m_runningSince = world.time();
}

void LiveWallPressure::sample(const World& world, const StepStats& stats) {
    if (!m_running) return;
    m_running->sample(world, stats);
    if (world.time() - m_runningSince >= m_window) {
        copyResult(m_running->result(), world.time() - m_runningSince, m_complete);
        m_complete.wall = m_wall;
        m_haveComplete = true;
        restart(world);
    }
}

void LiveWallPressure::fill(WallPressureProfile& out) const {
    if (m_haveComplete) {
        out = m_complete;
        return;
    }
    out = WallPressureProfile{};
    out.wall = m_wall;
    // A world that has not run a whole window yet shows what it has.
    if (m_running) copyResult(m_running->result(), 0.0, out);
}

}  // namespace ndem::app
