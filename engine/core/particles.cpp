#include "core/particles.hpp"

#include <numbers>

namespace ndem {

Index ParticleStore::add(const ParticleSpec& s, double density, int dimension) {
    const double r = s.radius;
    const bool disk = dimension == 2;
    const double m = s.mass > 0.0 ? s.mass
                     : disk       ? density * std::numbers::pi * r * r
                                  : density * 4.0 / 3.0 * std::numbers::pi * r * r * r;
    const double inertia = (disk ? 0.5 : 0.4) * m * r * r;
    const bool kinematic = (s.flags & kKinematic) != 0;
    const bool fixedRotation = kinematic || (s.flags & kFixedRotation) != 0;
    position.push_back(s.position);
    orientation.push_back(Quat::Identity());
    velocity.push_back(s.velocity);
    angularVelocity.push_back(s.angularVelocity);
    radius.push_back(s.radius);
    mass.push_back(m);
    invMass.push_back(kinematic ? 0.0 : 1.0 / m);
    invInertia.push_back(fixedRotation ? 0.0 : 1.0 / inertia);
    material.push_back(s.material);
    flags.push_back(s.flags);
    id.push_back(m_nextId);
    aggregate.push_back(-1);
    const Index index = static_cast<Index>(position.size() - 1);
    m_indexOfId.push_back(index);
    ++m_nextId;
    return index;
}

void ParticleStore::reserve(size_t n) {
    position.reserve(n);
    orientation.reserve(n);
    velocity.reserve(n);
    angularVelocity.reserve(n);
    radius.reserve(n);
    mass.reserve(n);
    invMass.reserve(n);
    invInertia.reserve(n);
    material.reserve(n);
    flags.reserve(n);
    id.reserve(n);
    aggregate.reserve(n);
    m_indexOfId.reserve(n);
}

void ParticleStore::clear() {
    *this = ParticleStore{};
}

namespace {
template <class T>
void swapRemove(std::vector<T>& field, size_t i) {
    field[i] = field.back();
    field.pop_back();
}

template <class T>
void applyOrder(std::vector<T>& field, const std::vector<Index>& order) {
    std::vector<T> out(field.size());
    for (size_t i = 0; i < order.size(); ++i)
        out[i] = field[order[i]];
    field.swap(out);
}
}  // namespace

void ParticleStore::remove(Index i) {
    const size_t k = static_cast<size_t>(i);
    const std::uint32_t gone = id[k];
    swapRemove(position, k);
    swapRemove(orientation, k);
    swapRemove(velocity, k);
    swapRemove(angularVelocity, k);
    swapRemove(radius, k);
    swapRemove(mass, k);
    swapRemove(invMass, k);
    swapRemove(invInertia, k);
    swapRemove(material, k);
    swapRemove(flags, k);
    swapRemove(id, k);
    swapRemove(aggregate, k);
    m_indexOfId[gone] = -1;
    if (k < id.size()) m_indexOfId[id[k]] = i;
}

void ParticleStore::permute(const std::vector<Index>& order) {
    applyOrder(position, order);
    applyOrder(orientation, order);
    applyOrder(velocity, order);
    applyOrder(angularVelocity, order);
    applyOrder(radius, order);
    applyOrder(mass, order);
    applyOrder(invMass, order);
    applyOrder(invInertia, order);
    applyOrder(material, order);
    applyOrder(flags, order);
    applyOrder(id, order);
    applyOrder(aggregate, order);
    for (size_t i = 0; i < id.size(); ++i)
        m_indexOfId[id[i]] = static_cast<Index>(i);
}

void ParticleStore::archive(StateArchive& a) {
    a.field("position", position);
    a.field("orientation", orientation);
    a.field("velocity", velocity);
    a.field("angularVelocity", angularVelocity);
    a.field("radius", radius);
    a.field("mass", mass);
    a.field("invMass", invMass);
    a.field("invInertia", invInertia);
    a.field("material", material);
    a.field("flags", flags);
    a.field("id", id);
    a.field("aggregate", aggregate);
    a.field("indexOfId", m_indexOfId);
    a.field("nextId", m_nextId);
    if (!a.loading()) return;
    const size_t n = position.size();
    for (size_t s : {orientation.size(), velocity.size(), angularVelocity.size(), radius.size(),
                     mass.size(), invMass.size(), invInertia.size(), material.size(), flags.size(),
                     id.size(), aggregate.size()})
        if (s != n) a.fail("particle arrays of different lengths");
    if (m_indexOfId.size() != m_nextId) a.fail("particle id index of the wrong length");
}

std::uint64_t stateHash(const ParticleStore& p) {
    std::uint64_t h = 1469598103934665603ull;
    auto mix = [&](const Vec3& v) {
        const auto* b = reinterpret_cast<const unsigned char*>(v.data());
        for (size_t i = 0; i < 3 * sizeof(double); ++i)
            h = (h ^ b[i]) * 1099511628211ull;
    };
    for (const Index k : p.indexOfId()) {
        if (k < 0) continue;  // removed
        mix(p.position[k]);
        mix(p.velocity[k]);
        mix(p.angularVelocity[k]);
    }
    return h;
}

}  // namespace ndem
