#include "gui/plot_history.hpp"

#include <cmath>

namespace ndem::app {

namespace {

void keepEven(std::vector<float>& v) {
    std::size_t out = 0;
    for (std::size_t i = 0; i < v.size(); i += 2)
        v[out++] = v[i];
    v.resize(out);
}

}  // namespace

void PlotHistory::add(const StepStats& s) {
    if (m_seen++ % m_stride != 0) return;
    time.push_back(static_cast<float>(s.time));
    iterations.push_back(static_cast<float>(s.iterations));
    collideMs.push_back(static_cast<float>(1e3 * s.seconds.collide));
    impactMs.push_back(static_cast<float>(1e3 * s.seconds.impact));
    solveMs.push_back(static_cast<float>(1e3 * s.seconds.solve));
    integrateMs.push_back(static_cast<float>(1e3 * s.seconds.integrate));
    measureMs.push_back(static_cast<float>(1e3 * s.seconds.measure));
    kineticEnergy.push_back(static_cast<float>(s.kineticEnergy));
    meanOverlap.push_back(static_cast<float>(s.meanOverlap));
    residual.push_back(static_cast<float>(s.residual));
    reductionLevel.push_back(static_cast<float>(s.reductionLevel));
    reduceMs.push_back(static_cast<float>(1e3 * s.seconds.reduce));
    const float ms = static_cast<float>(1e3 * s.seconds.total());
    stepMs.push_back(ms);
    stepMsReduced.push_back(s.reductionEnabled ? ms : NAN);
    stepMsResolved.push_back(s.reductionEnabled ? NAN : ms);
    if (time.size() >= m_capacity) halve();
}

std::array<std::vector<float>*, 15> PlotHistory::columns() {
    return {&time,           &iterations, &collideMs,     &impactMs,      &solveMs,
            &integrateMs,    &measureMs,  &kineticEnergy, &meanOverlap,   &residual,
            &reductionLevel, &reduceMs,   &stepMs,        &stepMsReduced, &stepMsResolved};
}

void PlotHistory::halve() {
    for (auto* v : columns())
        keepEven(*v);
    m_stride *= 2;
}

void PlotHistory::clear() {
    for (auto* v : columns())
        v->clear();
    m_stride = 1;
    m_seen = 0;
}

}  // namespace ndem::app
