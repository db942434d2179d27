#include "reduce/aggregate.hpp"

namespace ndem {

Aggregate formAggregate(std::span<const Index> members, const ParticleStore& p) {
    Aggregate a;
    Vec3 weighted = Vec3::Zero(), momentum = Vec3::Zero();
    for (Index i : members) {
        a.mass += p.mass[i];
        weighted += p.mass[i] * p.position[i];
        momentum += p.mass[i] * p.velocity[i];
    }
    a.position = weighted / a.mass;
    a.velocity = momentum / a.mass;
    Vec3 spin = Vec3::Zero();
    for (Index i : members) {
        const Vec3 r = p.position[i] - a.position;
        const double own = p.invInertia[i] > 0.0 ? 1.0 / p.invInertia[i]
                                                 : 0.4 * p.mass[i] * p.radius[i] * p.radius[i];
        a.inertia += p.mass[i] * (r.squaredNorm() * Mat3::Identity() - r * r.transpose()) +
                     own * Mat3::Identity();
        spin += p.mass[i] * r.cross(p.velocity[i] - a.velocity) + own * p.angularVelocity[i];
    }
    a.invInertia = a.inertia.inverse();
    a.angularVelocity = a.invInertia * spin;
    a.members.reserve(members.size());
    a.offsets.reserve(members.size());
    a.memberOrientation.reserve(members.size());
    for (Index i : members) {
        a.members.push_back(p.id[i]);
        a.offsets.push_back(p.position[i] - a.position);
        a.memberOrientation.push_back(p.orientation[i]);
    }
    return a;
}

void coMove(const Aggregate& a, ParticleStore& p) {
    const Mat3 r = a.orientation.toRotationMatrix();
    const std::vector<Index>& index = p.indexOfId();
    for (size_t k = 0; k < a.members.size(); ++k) {
        const Index i = index[a.members[k]];
        const Vec3 arm = r * a.offsets[k];
        p.position[i] = a.position + arm;
        p.orientation[i] = a.orientation * a.memberOrientation[k];
        p.velocity[i] = a.velocity + a.angularVelocity.cross(arm);
        p.angularVelocity[i] = a.angularVelocity;
    }
}

}  // namespace ndem
