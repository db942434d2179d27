// The open scene and its simulation thread, and every change the GUI makes to them.
#pragma once

#include "core/scene.hpp"
#include "io/scene_file.hpp"
#include "sim/sim_loop.hpp"

#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace ndem::app {

/// Owns the SimLoop. Edits are checked here on the GUI thread (a bad value is refused with a
/// message and never reaches the engine) and then posted as commands that run between steps.
/// Results that only the sim thread knows (an export finished, the engine refused a setting)
/// come back as messages, drained by the GUI each frame.
class Session {
  public:
    /// `onPublished` runs on the sim thread after each snapshot (the viewport's queued update).
    explicit Session(std::function<void()> onPublished);
    ~Session();

    /// Loads and validates `path` with `overrides`; on success the running world is replaced
    /// (or the loop starts, paused). On error nothing changes and the message names the problem.
    /// A checkpoint (*.h5, written by saveState or `ndem run --checkpoint`) goes on from its
    /// state bit for bit; it takes no overrides.
    std::optional<std::string> open(const std::string& path,
                                    const std::vector<Override>& overrides);
    /// Rebuilds the world from the scene as loaded (particle count changes take effect here).
    std::optional<std::string> reset();

    bool hasScene() const { return m_loop != nullptr; }
    SimLoop& loop() { return *m_loop; }
    const Scene& scene() const { return m_scene; }
    const std::string& path() const { return m_path; }
    const std::vector<Override>& overrides() const { return m_overrides; }

    /// Settings for the running world: validated here, applied between steps.
    std::optional<std::string> applySettings(const StepSettings& settings);
    std::optional<std::string> applyMaterial(size_t index, const Material& material);
    /// Scene knobs that act on the running world at once.
    void setWallEnabled(size_t wall, bool enabled);
    std::optional<std::string> setWallAngularSpeed(size_t wall, double radPerSecond);
    std::optional<std::string> setBeltSpeed(size_t wall, double metresPerSecond);
    std::optional<std::string> setEmitterRate(size_t emitter, double perSecond);
    /// Split sensors (model reduction): kept in the scene too, so a reset or a saved state
    /// keeps them where the user put them.
    const std::vector<SplitSensor>& sensors() const { return m_scene.sensors; }
    std::optional<std::string> setSensor(size_t index, const SplitSensor& sensor);
    size_t addSensor(SensorShape shape, const Vec3& centre, double size);
    void removeSensor(size_t index);
    /// Scene knobs that need a rebuild: stored in the scene and applied by reset().
    std::optional<std::string> setParticleCount(size_t generator, int count);
    /// Writes one VTK frame of the current state into `directory` (ParaView series).
    void exportVtk(const std::string& directory);
    /// Saves the whole state as a checkpoint (io/checkpoint.hpp) that open() and
    /// `ndem run --restart` go on from, bit for bit.
    void saveState(const std::string& path);

    /// Messages from the sim thread (and from edits), oldest first; clears them.
    std::vector<std::string> takeMessages();
    void report(std::string message);

  private:
    std::optional<std::string> openCheckpoint(const std::string& path);
    /// Makes `world` the running one and `scene` (from `sourceText`) the one a reset rebuilds.
    void adopt(Scene scene, World world, std::string sourceText, const std::string& path,
               const std::vector<Override>& overrides);

    std::unique_ptr<SimLoop> m_loop;
    std::function<void()> m_onPublished;
    Scene m_scene;
    std::string m_path;
    std::string m_sourceText;  ///< the scene file as opened (a checkpoint keeps it)
    std::vector<Override> m_overrides;
    std::mutex m_messagesMutex;
    std::vector<std::string> m_messages;
};

}  // namespace ndem::app
