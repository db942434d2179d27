// ParaView output: a time series of VTK XML PolyData files (particles, contacts, walls) with a
// .pvd collection per kind, so a run opens in ParaView as one animated dataset per kind.
#pragma once

#include "core/error.hpp"

#include <optional>
#include <string>
#include <vector>

namespace ndem {

class World;

/// Writes one frame per call into a directory:
///   particles_%06d.vtp  one vertex per particle: radius, velocity, angular_velocity, speed, id,
///                       material
///   contacts_%06d.vtp   one line per touching contact (A to B, or particle to wall point):
///                       normal_force, tangential_force (N), overlap (m), impact
///   walls_%06d.vtp      enabled walls as world-space polygons, with their wall index
/// and rewrites particles.pvd, contacts.pvd and walls.pvd to list every frame so far.
/// Arrays are raw little-endian appended binary (UInt64 headers): 10 000 particles take about
/// 1 MB and no encoding time. Every file goes to <name>.tmp first and is then renamed, so an
/// interrupted run never leaves a truncated file under a name ParaView would open.
/// Not thread-safe; call between steps, like everything that reads the World.
class VtkSeries {
  public:
    /// `directory` is created on the first frame if it does not exist.
    explicit VtkSeries(std::string directory);

    /// Writes frame frameCount() of `world`. On error the frame is not counted (the next call
    /// retries the same number) and the message reads "vtk: <path>: <reason>".
    std::optional<Error> writeFrame(const World& world);

    const std::string& directory() const { return m_directory; }
    /// Frames written completely so far.
    int frameCount() const { return static_cast<int>(m_times.size()); }

  private:
    std::string m_directory;
    std::vector<double> m_times;  ///< simulated time of each written frame (s)
};

}  // namespace ndem
