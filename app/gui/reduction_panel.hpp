// The "Model reduction" panel: switches and thresholds, h(t) and step time, split sensors.
#pragma once

#include "gui/panels.hpp"

namespace ndem::app {

void reductionPanel(Session& session, const Snapshot& s, const PlotHistory& history,
                    PanelState& state, double now);

}  // namespace ndem::app
