// Least-squares fits of a free surface sampled by its highest particles, the vertical that
// heights are measured along, and the spread of a sampled angle. Shared by the pile, slope and
// drum measurements.
#pragma once

#include "core/types.hpp"

#include <cmath>
#include <optional>
#include <vector>

namespace ndem {

/// Heights go against gravity and horizontal coordinates follow world x and y as closely as
/// the vertical allows, so with the default gravity (−z) height is z and (across1, across2)
/// is (x, y). Without gravity (e.g. a scene that switched it off) z is up.
struct VerticalFrame {
    Vec3 up = Vec3::UnitZ();
    Vec3 across1 = Vec3::UnitX();
    Vec3 across2 = Vec3::UnitY();
};

inline VerticalFrame verticalFrame(const Vec3& gravity) {
    VerticalFrame f;
    if (gravity.norm() > 0.0) f.up = -gravity.normalized();
    Vec3 e1 = Vec3::UnitX() - Vec3::UnitX().dot(f.up) * f.up;
    if (e1.norm() < 1e-6) e1 = Vec3::UnitY() - Vec3::UnitY().dot(f.up) * f.up;
    f.across1 = e1.normalized();
    f.across2 = f.up.cross(f.across1);
    return f;
}

/// h = intercept + slope s, with the root-mean-square residual (m).
struct LineFit {
    double intercept = 0.0, slope = 0.0, rms = 0.0;
};

/// Ordinary least squares of h over s; nothing when fewer than 3 points or all s equal.
inline std::optional<LineFit> fitLine(const std::vector<double>& s, const std::vector<double>& h) {
    const size_t n = s.size();
    if (n < 3) return std::nullopt;
    double ms = 0.0, mh = 0.0;
    for (size_t i = 0; i < n; ++i) {
        ms += s[i] / n;
        mh += h[i] / n;
    }
    double sss = 0.0, ssh = 0.0;
    for (size_t i = 0; i < n; ++i) {
        sss += (s[i] - ms) * (s[i] - ms);
        ssh += (s[i] - ms) * (h[i] - mh);
    }
    if (sss <= 0.0) return std::nullopt;
    LineFit f;
    f.slope = ssh / sss;
    f.intercept = mh - f.slope * ms;
    double sq = 0.0;
    for (size_t i = 0; i < n; ++i)
        sq += std::pow(h[i] - f.intercept - f.slope * s[i], 2);
    f.rms = std::sqrt(sq / n);
    return f;
}

/// h = a + b u + c w over points (u, w, h), with the root-mean-square residual (m).
struct PlaneFit {
    double a = 0.0, b = 0.0, c = 0.0, rms = 0.0;
};

/// Least squares through the normal equations, centred for conditioning; nothing when fewer
/// than 3 points or all on one line.
inline std::optional<PlaneFit> fitPlane(const std::vector<Vec3>& points) {
    const size_t n = points.size();
    if (n < 3) return std::nullopt;
    Vec3 mean = Vec3::Zero();
    for (const Vec3& p : points)
        mean += p;
    mean /= static_cast<double>(n);
    Eigen::Matrix2d normal = Eigen::Matrix2d::Zero();
    Eigen::Vector2d rhs = Eigen::Vector2d::Zero();
    for (const Vec3& p : points) {
        const Eigen::Vector2d q(p.x() - mean.x(), p.y() - mean.y());
        normal += q * q.transpose();
        rhs += q * (p.z() - mean.z());
    }
    if (std::abs(normal.determinant()) <= 1e-12 * normal.squaredNorm()) return std::nullopt;
    const Eigen::Vector2d bc = normal.ldlt().solve(rhs);
    PlaneFit f;
    f.b = bc.x();
    f.c = bc.y();
    f.a = mean.z() - f.b * mean.x() - f.c * mean.y();
    double sq = 0.0;
    for (const Vec3& p : points)
        sq += std::pow(p.z() - f.a - f.b * p.x() - f.c * p.y(), 2);
    f.rms = std::sqrt(sq / n);
    return f;
}

/// Mean and (population) standard deviation of sampled values; zeros when empty.
struct Spread {
    double mean = 0.0, std = 0.0;
};

inline Spread spreadOf(const std::vector<double>& values) {
    Spread s;
    if (values.empty()) return s;
    for (double v : values)
        s.mean += v;
    s.mean /= values.size();
    for (double v : values)
        s.std += (v - s.mean) * (v - s.mean);
    s.std = std::sqrt(s.std / values.size());
    return s;
}

}  // namespace ndem
