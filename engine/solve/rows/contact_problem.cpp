#include "solve/rows/contact_problem.hpp"

#include "solve/rows/second_order_cone.hpp"

#include <Eigen/Dense>

#include <algorithm>
#include <array>
#include <cmath>

namespace ndem {

namespace {

using Triplet = Eigen::Triplet<double>;

/// A contact's rows as ±(direction, lever × direction) on bodies a and b, normal row scaled.
struct RowCoefficients {
    Vec3 linear;  ///< on b; a takes −linear
    Vec3 angularA, angularB;
};

/// Row k of SolverContact's six; a rolling row (k ≥ 3) is the relative angular velocity
/// about its axis.
RowCoefficients coefficients(const SolverContact& c, int k) {
    if (k >= 3) {
        const Vec3& axis = k == 3 ? c.t1 : (k == 4 ? c.t2 : c.n);
        return {Vec3::Zero(), axis, axis};
    }
    const Vec3& dir = k == 0 ? c.n : (k == 1 ? c.t1 : c.t2);
    const double s = k == 0 ? c.scale : 1.0;
    return {s * dir, s * c.leverA.cross(dir), s * c.leverB.cross(dir)};
}

bool hasRotation(const SolverBody& body) {
    for (double k : body.invInertia)
        if (k != 0.0) return true;
    return false;
}

Eigen::Matrix3d inverseInertia(const SolverBody& body) {
    const double* k = body.invInertia;
    Eigen::Matrix3d m;
    m << k[0], k[3], k[4], k[3], k[1], k[5], k[4], k[5], k[2];
    return m;
}

}  // namespace

ContactProblem ContactProblem::fromRows(std::span<const SolverContact> rows,
                                        std::span<const SolverBody> bodies, ProblemForm form) {
    ContactProblem p;
    p.unknownOf.assign(bodies.size(), -1);
    for (size_t i = 0; i < bodies.size(); ++i) {
        if (bodies[i].invMass <= 0.0) continue;
        p.unknownOf[i] = static_cast<int>(p.movableBody.size());
        p.movableBody.push_back(static_cast<int>(i));
    }
    const int n = static_cast<int>(p.movableBody.size());

    // Masses: 6×6 blocks. A body whose rotation is locked (I⁻¹ = 0) keeps identity there and
    // no angular Jacobian, so its ω never changes.
    std::vector<Triplet> mass, invMass;
    std::vector<bool> rotates(static_cast<size_t>(n));
    for (int u = 0; u < n; ++u) {
        const SolverBody& body = bodies[static_cast<size_t>(p.movableBody[static_cast<size_t>(u)])];
        rotates[static_cast<size_t>(u)] = hasRotation(body);
        for (int d = 0; d < 3; ++d) {
            mass.emplace_back(6 * u + d, 6 * u + d, 1.0 / body.invMass);
            if (!body.prismatic()) invMass.emplace_back(6 * u + d, 6 * u + d, body.invMass);
        }
        // A prismatic body's M⁻¹ is (1/m) a aᵀ: W = J M⁻¹ Jᵀ moves it along a only (M stays
        // m·1, which only sizes the methods' scaling).
        if (body.prismatic())
            for (int r = 0; r < 3; ++r)
                for (int c = 0; c < 3; ++c)
                    if (const double k = body.invMass * body.axis[r] * body.axis[c]; k != 0.0)
                        invMass.emplace_back(6 * u + r, 6 * u + c, k);
        const Eigen::Matrix3d ki =
            rotates[static_cast<size_t>(u)] ? inverseInertia(body) : Eigen::Matrix3d::Identity();
        const Eigen::Matrix3d k = ki.inverse();
        for (int r = 0; r < 3; ++r)
            for (int c = 0; c < 3; ++c) {
                if (k(r, c) != 0.0) mass.emplace_back(6 * u + 3 + r, 6 * u + 3 + c, k(r, c));
                if (ki(r, c) != 0.0) invMass.emplace_back(6 * u + 3 + r, 6 * u + 3 + c, ki(r, c));
            }
    }
    p.M.resize(6 * n, 6 * n);
    p.M.setFromTriplets(mass.begin(), mass.end());
    p.invM.resize(6 * n, 6 * n);
    p.invM.setFromTriplets(invMass.begin(), invMass.end());

    // Contacts and their rows.
    std::vector<Triplet> jacobian;
    std::vector<double> sigma, bias, invD;
    Eigen::VectorXd warm = Eigen::VectorXd::Zero(6 * n);  // Jᵀ λ₀ of the included contacts
    for (size_t i = 0; i < rows.size(); ++i) {
        const SolverContact& c = rows[i];
        if (c.invD[0] <= 0.0) continue;  // a row the PGS never moves (no body can)
        const double mu = c.friction * c.scale;
        const int full = form.dimension == 2 ? 2 : 3;
        const int dim = (mu > 0.0 || form.tangentialAlways) && c.invD[1] > 0.0 ? full : 1;
        p.contactRow.push_back(static_cast<int>(i));
        p.dim.push_back(dim);
        p.offset.push_back(static_cast<int>(bias.size()));
        p.mu.push_back(dim > 1 ? mu : 0.0);
        p.scale.push_back(c.scale);
        const int ua = p.unknownOf[static_cast<size_t>(c.a)];
        const int ub = p.unknownOf[static_cast<size_t>(c.b)];
        p.bodyA.push_back(ua);
        p.bodyB.push_back(ub);
        // Rolling rows: in the plane only the one about the plane's normal (t2) moves.
        int rollFirst = 3, rollCount = 0;
        if (form.rolling && (c.flags & kHasRolling) && c.rollingLimit > 0.0) {
            if (form.dimension == 2)
                rollFirst = 4, rollCount = 1;
            else
                rollCount = 3;
            if (!(c.invD[rollFirst] > 0.0)) rollCount = 0;  // neither body rotates
        }
        p.rolling.push_back(rollCount);
        p.rollingLimit.push_back(rollCount > 0 ? c.rollingLimit * c.scale : 0.0);
        // The warm start's impulses of all rows (a frictionless contact drops its tangential
        // ones: the solve sets them to zero, as the PGS projection does).
        for (int k = 0; k < (rollCount > 0 ? 6 : 3); ++k) {
            const RowCoefficients g = coefficients(c, k);
            const double l = c.lambda[k];
            if (l == 0.0) continue;
            if (ua >= 0) {
                warm.segment<3>(6 * ua) -= l * g.linear;
                if (rotates[static_cast<size_t>(ua)]) warm.segment<3>(6 * ua + 3) -= l * g.angularA;
            }
            if (ub >= 0) {
                warm.segment<3>(6 * ub) += l * g.linear;
                if (rotates[static_cast<size_t>(ub)]) warm.segment<3>(6 * ub + 3) += l * g.angularB;
            }
        }
        std::array<int, 6> kept{};
        int keptCount = 0;
        for (int k = 0; k < dim; ++k)
            kept[static_cast<size_t>(keptCount++)] = k;
        for (int k = rollFirst; k < rollFirst + rollCount; ++k)
            kept[static_cast<size_t>(keptCount++)] = k;
        for (int j = 0; j < keptCount; ++j) {
            const int k = kept[static_cast<size_t>(j)];
            const int row = static_cast<int>(bias.size());
            const RowCoefficients g = coefficients(c, k);
            double b = c.bias[k];
            // Bodies that cannot move but do (kinematic ones): their velocity is data.
            const SolverBody& A = bodies[static_cast<size_t>(c.a)];
            const SolverBody& B = bodies[static_cast<size_t>(c.b)];
            if (ua < 0) b += g.linear.dot(A.v) + g.angularA.dot(A.w);
            if (ub < 0) b -= g.linear.dot(B.v) + g.angularB.dot(B.w);
            for (int d = 0; d < 3; ++d) {
                if (ua >= 0) {
                    jacobian.emplace_back(row, 6 * ua + d, -g.linear[d]);
                    if (rotates[static_cast<size_t>(ua)])
                        jacobian.emplace_back(row, 6 * ua + 3 + d, -g.angularA[d]);
                }
                if (ub >= 0) {
                    jacobian.emplace_back(row, 6 * ub + d, g.linear[d]);
                    if (rotates[static_cast<size_t>(ub)])
                        jacobian.emplace_back(row, 6 * ub + 3 + d, g.angularB[d]);
                }
            }
            bias.push_back(b);
            sigma.push_back(k == 0 ? c.sigmaN : (k < 3 ? c.sigmaT : c.sigmaR));
            invD.push_back(c.invD[k]);
        }
    }
    const int m = static_cast<int>(bias.size());
    p.J.resize(m, 6 * n);
    p.J.setFromTriplets(jacobian.begin(), jacobian.end());
    p.sigma = Eigen::Map<const Eigen::VectorXd>(sigma.data(), m);
    p.b = Eigen::Map<const Eigen::VectorXd>(bias.data(), m);
    p.invD = Eigen::Map<const Eigen::VectorXd>(invD.data(), m);

    // v* = v − M⁻¹ Jᵀ λ₀: the bodies hold the warm-start impulses of these rows.
    Eigen::VectorXd v(6 * n);
    for (int u = 0; u < n; ++u) {
        const SolverBody& body = bodies[static_cast<size_t>(p.movableBody[static_cast<size_t>(u)])];
        v.segment<3>(6 * u) = body.v;
        v.segment<3>(6 * u + 3) = body.w;
    }
    p.vFree = v - p.invM * warm;
    return p;
}

void ContactProblem::appendSliders(std::span<const SolverContact> solverRows,
                                   std::span<const Slider> sliders,
                                   std::span<const int> contactSlider) {
    const int first = static_cast<int>(vFree.size());
    const int count = static_cast<int>(sliders.size());
    if (count == 0) return;
    auto grown = [&](const Sparse& a, int height, int cols, auto&& more) {
        std::vector<Triplet> t;
        t.reserve(static_cast<size_t>(a.nonZeros()));
        for (int r = 0; r < a.outerSize(); ++r)
            for (Sparse::InnerIterator it(a, r); it; ++it)
                t.emplace_back(static_cast<int>(it.row()), static_cast<int>(it.col()), it.value());
        more(t);
        Sparse out(height, cols);
        out.setFromTriplets(t.begin(), t.end());
        return out;
    };
    J = grown(J, rows(), first + count, [&](std::vector<Triplet>& t) {
        for (int c = 0; c < contacts(); ++c) {
            const int k = contactSlider[static_cast<size_t>(c)];
            if (k < 0) continue;
            const SolverContact& row =
                solverRows[static_cast<size_t>(contactRow[static_cast<size_t>(c)])];
            const Vec3& d = sliders[static_cast<size_t>(k)].direction;
            for (int j = 0; j < dim[static_cast<size_t>(c)]; ++j) {
                const double g = coefficients(row, j).linear.dot(d);
                if (g != 0.0) t.emplace_back(offset[static_cast<size_t>(c)] + j, first + k, g);
            }
        }
    });
    M = grown(M, first + count, first + count, [&](std::vector<Triplet>& t) {
        for (int k = 0; k < count; ++k)
            t.emplace_back(first + k, first + k, 1.0 / sliders[static_cast<size_t>(k)].invMass);
    });
    invM = grown(invM, first + count, first + count, [&](std::vector<Triplet>& t) {
        for (int k = 0; k < count; ++k)
            t.emplace_back(first + k, first + k, sliders[static_cast<size_t>(k)].invMass);
    });
    vFree.conservativeResize(first + count);
    for (int k = 0; k < count; ++k)
        vFree[first + k] = sliders[static_cast<size_t>(k)].freeVelocity;
}

Eigen::VectorXd ContactProblem::velocities(const Eigen::VectorXd& lambda) const {
    return vFree + invM * (J.transpose() * lambda);
}

Eigen::VectorXd ContactProblem::constraintVelocity(const Eigen::VectorXd& lambda) const {
    return J * velocities(lambda) + sigma.cwiseProduct(lambda) - b;
}

ContactProblem::Sparse ContactProblem::delassus() const {
    Sparse w = J * invM * J.transpose();
    for (int i = 0; i < rows(); ++i)
        w.coeffRef(i, i) += sigma[i];
    return w;
}

Eigen::VectorXd ContactProblem::freeConstraintVelocity() const {
    return J * vFree - b;
}

LocalProblem ContactProblem::local() const {
    LocalProblem l;
    l.W = delassus();
    l.q = freeConstraintVelocity();
    l.dim = dim;
    l.offset = offset;
    l.mu = mu;
    if (std::any_of(rolling.begin(), rolling.end(), [](int k) { return k > 0; })) {
        l.rolling = rolling;
        l.rollingLimit = rollingLimit;
    }
    return l;
}

LocalProblem ContactProblem::physical() const {
    LocalProblem l = local();
    Eigen::VectorXd s = Eigen::VectorXd::Ones(rows());
    for (int c = 0; c < contacts(); ++c) {
        s[offset[static_cast<size_t>(c)]] = scale[static_cast<size_t>(c)];
        l.mu[static_cast<size_t>(c)] = mu[static_cast<size_t>(c)] / scale[static_cast<size_t>(c)];
        if (!l.rollingLimit.empty())
            l.rollingLimit[static_cast<size_t>(c)] /= scale[static_cast<size_t>(c)];
    }
    const Eigen::VectorXd sinv = s.cwiseInverse();
    l.W = Eigen::SparseMatrix<double>(sinv.asDiagonal() * l.W) * sinv.asDiagonal();
    l.q = l.q.cwiseProduct(sinv);
    return l;
}

Eigen::VectorXd ContactProblem::gather(std::span<const SolverContact> rows) const {
    Eigen::VectorXd lambda = Eigen::VectorXd::Zero(this->rows());
    for (int c = 0; c < contacts(); ++c) {
        const SolverContact& r = rows[static_cast<size_t>(contactRow[static_cast<size_t>(c)])];
        const int o = offset[static_cast<size_t>(c)], d = dim[static_cast<size_t>(c)];
        for (int k = 0; k < d; ++k)
            lambda[o + k] = r.lambda[k];
        const int roll = rolling[static_cast<size_t>(c)];
        for (int k = 0; k < roll; ++k)
            lambda[o + d + k] = r.lambda[(roll == 1 ? 4 : 3) + k];
    }
    return lambda;
}

void ContactProblem::store(const Eigen::VectorXd& lambda, std::span<SolverContact> rows,
                           std::span<SolverBody> bodies) const {
    store(lambda, velocities(lambda), rows, bodies);
}

void ContactProblem::store(const Eigen::VectorXd& lambda, const Eigen::VectorXd& v,
                           std::span<SolverContact> rows, std::span<SolverBody> bodies) const {
    for (int c = 0; c < contacts(); ++c) {
        SolverContact& r = rows[static_cast<size_t>(contactRow[static_cast<size_t>(c)])];
        const int o = offset[static_cast<size_t>(c)], d = dim[static_cast<size_t>(c)];
        for (int k = 0; k < 3; ++k)
            r.lambda[k] = k < d ? lambda[o + k] : 0.0;
        const int roll = rolling[static_cast<size_t>(c)];
        if (roll == 0) continue;
        for (int k = 3; k < 6; ++k)
            r.lambda[k] = 0.0;
        for (int k = 0; k < roll; ++k)
            r.lambda[(roll == 1 ? 4 : 3) + k] = lambda[o + d + k];
    }
    for (size_t u = 0; u < movableBody.size(); ++u) {
        SolverBody& body = bodies[static_cast<size_t>(movableBody[u])];
        body.v = v.segment<3>(6 * static_cast<Eigen::Index>(u));
        body.w = v.segment<3>(6 * static_cast<Eigen::Index>(u) + 3);
    }
}

ProblemResidual pgsResidual(const ContactProblem& p, const Eigen::VectorXd& lambda) {
    const Eigen::VectorXd y = p.constraintVelocity(lambda);
    ProblemResidual r;
    int counted = 0, normals = 0;
    auto add = [&](double dl, double invD, bool normal) {
        if (invD <= 0.0) return;
        const double e = std::abs(dl) / invD;
        r.mean += e;
        r.max = std::max(r.max, e);
        ++counted;
        if (normal) {
            r.normal += e;
            ++normals;
        }
    };
    for (int c = 0; c < p.contacts(); ++c) {
        const int o = p.offset[static_cast<size_t>(c)];
        // Normal: λ ← max(0, λ − y D⁻¹); friction: (λ_t − y_t D⁻¹) onto the disc μ' λ_n.
        const double ln = std::max(0.0, lambda[o] - y[o] * p.invD[o]);
        add(ln - lambda[o], p.invD[o], true);
        const int d = p.dim[static_cast<size_t>(c)];
        // Rolling: (λ_r − y_r D⁻¹) onto the disc (and the twist's interval) L λ_n.
        const int roll = p.rolling[static_cast<size_t>(c)];
        if (roll > 0) {
            const int ro = o + d;
            const double limit = p.rollingLimit[static_cast<size_t>(c)] * ln;
            double l[3] = {};
            for (int k = 0; k < roll; ++k)
                l[k] = lambda[ro + k] - y[ro + k] * p.invD[ro + k];
            const double mag = roll == 1 ? std::abs(l[0]) : std::hypot(l[0], l[1]);
            const double f = mag > limit ? limit / mag : 1.0;
            for (int k = 0; k < std::min(roll, 2); ++k)
                add(f * l[k] - lambda[ro + k], p.invD[ro + k], false);
            if (roll == 3)
                add(std::clamp(l[2], -limit, limit) - lambda[ro + 2], p.invD[ro + 2], false);
        }
        if (d == 1) continue;
        double l[3] = {};
        for (int k = 1; k < d; ++k)
            l[k] = lambda[o + k] - y[o + k] * p.invD[o + k];
        const double limit = p.mu[static_cast<size_t>(c)] * ln;
        const double mag = cone::tangentNorm(d, l);
        const double f = mag > limit ? limit / mag : 1.0;
        for (int k = 1; k < d; ++k)
            add(f * l[k] - lambda[o + k], p.invD[o + k], false);
    }
    if (counted > 0) r.mean /= counted;
    if (normals > 0) r.normal /= normals;
    return r;
}

}  // namespace ndem
