// The bench series beyond the settled bed: grains raining onto it (detection, impact stage) and
// the app's live silo (the real-time factor a user sees).
#pragma once

#include "world/world.hpp"

#include <functional>
#include <nlohmann/json.hpp>
#include <string>

namespace ndem::bench {

/// Phase times in ms, with their total.
nlohmann::json phasesMs(const PhaseTimes& t);

/// Grains of the bed's size emitted 5–10 d above a settled bed at `rate` per second, falling
/// onto it for `steps` steps (the world keeps them): per-step phase times, impacts, contacts.
nlohmann::json rainOntoBed(World& bed, int steps, double rate,
                           const std::function<void(const std::string&)>& progress);

/// The app's default scene (assets/scenes/silo-9d-live.json) stepped on every core for
/// `seconds` of simulated time (its whole fast fill in a full run): real-time factor, mean
/// overlap at the end, threads and phase times.
nlohmann::json liveSilo(double seconds, const std::function<void(const std::string&)>& progress);

}  // namespace ndem::bench
