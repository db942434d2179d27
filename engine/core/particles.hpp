// Structure-of-arrays storage of the spherical particles (the bodies of the granular system).
#pragma once

#include "core/material.hpp"
#include "core/state_archive.hpp"
#include "core/types.hpp"

#include <cstdint>
#include <vector>

namespace ndem {

/// Body flags (bit set per particle).
enum ParticleFlag : std::uint8_t {
    kKinematic = 1u << 0,      ///< prescribed motion: velocity is given, no force changes it
    kFixedRotation = 1u << 1,  ///< infinite rotational inertia (ω stays as given)
};

/// Everything needed to add one particle.
struct ParticleSpec {
    Vec3 position = Vec3::Zero();         ///< x (m)
    Vec3 velocity = Vec3::Zero();         ///< v (m/s)
    Vec3 angularVelocity = Vec3::Zero();  ///< ω (rad/s)
    double radius = 0.005;                ///< r (m)
    double mass = 0.0;                    ///< m (kg); 0 = from the material density
    MaterialId material = 0;
    std::uint8_t flags = 0;
};

/// Particles in separate contiguous arrays, one per field, so each phase streams only what it
/// reads (collision: positions and radii; PGS: velocities and inverse masses). `id` is the
/// stable identity; the storage index changes when the store is reordered for locality.
class ParticleStore {
  public:
    std::vector<Vec3> position;         ///< x (m)
    std::vector<Quat> orientation;      ///< q (unit quaternion, body to world)
    std::vector<Vec3> velocity;         ///< v (m/s)
    std::vector<Vec3> angularVelocity;  ///< ω (rad/s)
    std::vector<double> radius;         ///< r (m)
    std::vector<double> mass;           ///< m (kg)
    std::vector<double> invMass;        ///< 1/m (1/kg), 0 for kinematic particles
    std::vector<double> invInertia;  ///< 1/I (1/(kg m²)), I = (2/5) m r² (a disk: m r²/2); 0 if
                                     ///< rotation is fixed
    std::vector<MaterialId> material;     ///< index into the MaterialTable
    std::vector<std::uint8_t> flags;      ///< ParticleFlag bits
    std::vector<std::uint32_t> id;        ///< stable identity (creation order)
    std::vector<std::int32_t> aggregate;  ///< rigid aggregate the particle co-moves with, -1 free

    size_t size() const { return position.size(); }
    bool empty() const { return position.empty(); }

    /// Adds a particle of the given material density; returns its storage index. Dimension 2:
    /// a disk, its mass and inertia per metre of thickness.
    Index add(const ParticleSpec& spec, double density, int dimension = 3);
    void reserve(size_t n);
    void clear();

    /// Removes the particle at storage index i (the last one takes its place); its id is
    /// retired (indexOfId()[id] = -1). Call between steps only.
    void remove(Index i);

    /// Reorders every array by `order` (new index i takes old index order[i]).
    void permute(const std::vector<Index>& order);

    /// Saves or loads every array, in storage order (core/state_archive.hpp).
    void archive(StateArchive& a);

    /// Storage index of each stable id (size = next id), -1 where removed.
    const std::vector<Index>& indexOfId() const { return m_indexOfId; }
    std::uint32_t nextId() const { return m_nextId; }

  private:
    std::vector<Index> m_indexOfId;
    std::uint32_t m_nextId = 0;
};

/// Translational plus rotational kinetic energy of particle i if it moves freely, else 0 (J).
inline double kineticEnergy(const ParticleStore& p, size_t i) {
    if (p.invMass[i] <= 0.0) return 0.0;
    const double inertia = p.invInertia[i] > 0.0 ? 1.0 / p.invInertia[i] : 0.0;
    return 0.5 * p.mass[i] * p.velocity[i].squaredNorm() +
           0.5 * inertia * p.angularVelocity[i].squaredNorm();
}

/// FNV-1a 64 over the bytes of every particle's position, velocity and angular velocity, in
/// the order of the stable ids (whatever the storage order): two runs are bit for bit the same
/// state exactly when the hashes agree (a report's `summary.stateHash`).
std::uint64_t stateHash(const ParticleStore& p);

}  // namespace ndem
