// The body of the batch kernel, included once per instruction set. It includes nothing with
// inline code of its own (a copy built for AVX-512 must not stand in for the baseline's).
#pragma once

#include "dem/smooth_batch.hpp"

namespace ndem {
namespace {

struct LaneMaterial {
    double elastic, shear, friction, rolling, damping;
};

/// Lane k's material: the batch's one (read before the loop) or the lane's own.
template <bool Uniform>
[[gnu::always_inline]] inline LaneMaterial laneMaterial(const SmoothBatch& b, int k,
                                                        const LaneMaterial& one) {
    if constexpr (Uniform)
        return one;
    else
        return {b.elastic[k], b.shear[k], b.friction[k], b.rolling[k], b.damping[k]};
}

/// The law of smoothContactForce (Hertz) for lane k, given the contact's normal n, overlap δ,
/// effective radius R*, velocity u of B against A at the contact point and rolling angle
/// q = θ + h (ω_B − ω_A) before its projection: writes the
/// springs, f_n, f_t, the moment M and f = f_n n + f_t. Branch-free, so that the loops around it
/// run several contacts per instruction.
template <bool MayRoll>
[[gnu::always_inline]] inline void lawLane(SmoothBatch& b, int k, double h, const LaneMaterial& m,
                                           double nx, double ny, double nz, double delta,
                                           double rStar, double ux, double uy, double uz, double qx,
                                           double qy, double qz) {
    const bool pressed = delta > 0.0;
    const double d = pressed ? delta : 0.0;
    const double un = ux * nx + uy * ny + uz * nz;

    const double rootR = __builtin_sqrt(rStar), rootDelta = __builtin_sqrt(d);
    const double stiffness = (2.0 / 3.0) * m.elastic * rootR;
    const double c = m.damping;
    const double fnRaw = stiffness * rootDelta * (d - c * un);
    const double fn = fnRaw > 0.0 ? fnRaw : 0.0;
    const double kt = 8.0 * m.shear * rootR * rootDelta;

    // The spring turned into the tangent plane, its length kept.
    double xx = b.xix[k], xy = b.xiy[k], xz = b.xiz[k];
    const double length2 = xx * xx + xy * xy + xz * xz;
    const double xn = xx * nx + xy * ny + xz * nz;
    const double tx = xx - xn * nx, ty = xy - xn * ny, tz = xz - xn * nz;
    const double t2 = tx * tx + ty * ty + tz * tz;
    // Divisions and roots of every lane are taken on safe operands, then selected: no
    // branch, and no lane divides by zero.
    const double keep = __builtin_sqrt(length2 / (t2 > 0.0 ? t2 : 1.0));
    const double utx = ux - un * nx, uty = uy - un * ny, utz = uz - un * nz;
    xx = tx * keep + h * utx;
    xy = ty * keep + h * uty;
    xz = tz * keep + h * utz;
    const double cx = c * kt * utx, cy = c * kt * uty, cz = c * kt * utz;
    double ftx = -kt * xx - cx, fty = -kt * xy - cy, ftz = -kt * xz - cz;
    // Coulomb: f_t capped at μ f_n, the spring shortened to match.
    const double m2 = ftx * ftx + fty * fty + ftz * ftz;
    const double limit = m.friction * fn;
    const bool slips = (m2 > limit * limit) & (m2 != 0.0);
    const double capped = limit / __builtin_sqrt(m2 > 0.0 ? m2 : 1.0);
    const double scale = slips ? capped : 1.0;
    ftx *= scale;
    fty *= scale;
    ftz *= scale;
    const double ktInverse = 1.0 / (kt > 0.0 ? kt : 1.0);
    const double invKt = kt > 0.0 ? ktInverse : 0.0;
    xx = slips ? -(ftx + cx) * invKt : xx;
    xy = slips ? -(fty + cy) * invKt : xy;
    xz = slips ? -(ftz + cz) * invKt : xz;

    // Rolling (tangent-plane part) and twisting (normal part) springs on ω_B − ω_A, kept
    // only where the pair has rolling resistance (selects, not branches: one path for
    // every lane). A batch of one material without it skips them (MayRoll false).
    double thx = b.thx[k], thy = b.thy[k], thz = b.thz[k];
    double mx = 0.0, my = 0.0, mz = 0.0;
    if constexpr (MayRoll) {
        const double muR = m.rolling;
        const bool rolls = muR > 0.0;
        const double kr = kt * rStar * rStar;
        const double krInverse = 1.0 / (kr > 0.0 ? kr : 1.0);
        const double invKr = kr > 0.0 ? krInverse : 0.0;
        const double rollLimit = muR * rStar * fn;
        const double qn = qx * nx + qy * ny + qz * nz;
        const double rx = qx - qn * nx, ry = qy - qn * ny, rz = qz - qn * nz;  // rolling angle
        const double wx = qn * nx, wy = qn * ny, wz = qn * nz;                 // twisting angle
        const double r2 = kr * kr * (rx * rx + ry * ry + rz * rz);
        const bool rollSlips = (r2 > rollLimit * rollLimit) & (r2 != 0.0);
        const double rCapped = rollLimit / __builtin_sqrt(r2 > 0.0 ? r2 : 1.0);
        const double rScale = rollSlips ? rCapped : 1.0;
        const double Rx = -kr * rx * rScale, Ry = -kr * ry * rScale, Rz = -kr * rz * rScale;
        const double w2 = kr * kr * (wx * wx + wy * wy + wz * wz);
        const bool twistSlips = (w2 > rollLimit * rollLimit) & (w2 != 0.0);
        const double wCapped = rollLimit / __builtin_sqrt(w2 > 0.0 ? w2 : 1.0);
        const double wScale = twistSlips ? wCapped : 1.0;
        const double Wx = -kr * wx * wScale, Wy = -kr * wy * wScale, Wz = -kr * wz * wScale;
        const double tx = (rollSlips ? -Rx * invKr : rx) + (twistSlips ? -Wx * invKr : wx);
        const double ty = (rollSlips ? -Ry * invKr : ry) + (twistSlips ? -Wy * invKr : wy);
        const double tz = (rollSlips ? -Rz * invKr : rz) + (twistSlips ? -Wz * invKr : wz);
        thx = rolls ? tx : thx;
        thy = rolls ? ty : thy;
        thz = rolls ? tz : thz;
        mx = rolls ? Rx + Wx : 0.0, my = rolls ? Ry + Wy : 0.0, mz = rolls ? Rz + Wz : 0.0;
    } else {
        (void)qx, (void)qy, (void)qz;
    }

    // Touching within round-off but not pressed: no force, no springs.
    ftx = pressed ? ftx : 0.0;
    fty = pressed ? fty : 0.0;
    ftz = pressed ? ftz : 0.0;
    mx = pressed ? mx : 0.0;
    my = pressed ? my : 0.0;
    mz = pressed ? mz : 0.0;
    xx = pressed ? xx : 0.0;
    xy = pressed ? xy : 0.0;
    xz = pressed ? xz : 0.0;
    thx = pressed ? thx : 0.0;
    thy = pressed ? thy : 0.0;
    thz = pressed ? thz : 0.0;
    b.xix[k] = xx;
    b.xiy[k] = xy;
    b.xiz[k] = xz;
    b.thx[k] = thx;
    b.thy[k] = thy;
    b.thz[k] = thz;
    b.normalForce[k] = fn;
    b.ftx[k] = ftx;
    b.fty[k] = fty;
    b.ftz[k] = ftz;
    b.mx[k] = mx;
    b.my[k] = my;
    b.mz[k] = mz;
    const double fx = fn * nx + ftx, fy = fn * ny + fty, fz = fn * nz + ftz;
    b.fx[k] = fx;
    b.fy[k] = fy;
    b.fz[k] = fz;
}

/// Pairs of grains: n, δ and the levers from the centres' offset and the radii, the velocity
/// at the contact point from the grains' velocities and spins, each read by index.
template <bool Uniform, bool MayRoll>
inline void pairsLoop(SmoothBatch& b, int count, double h) {
    const LaneMaterial one{b.material[0], b.material[1], b.material[2], b.material[3],
                           b.material[4]};
    const double* const position = b.grains.position;
    const double* const radius = b.grains.radius;
    const double* const velocity = b.grains.velocity;
    const double* const spin = b.grains.spin;
    const int stride = b.grains.stride;
#pragma omp simd
    for (int k = 0; k < count; ++k) {
        const int ia = b.indexA[k], ib = b.indexB[k];
        const int ga = ia * stride, gb = ib * stride, va = 3 * ia, vb = 3 * ib;
        const double dx = position[gb] - position[ga];
        const double dy = position[gb + 1] - position[ga + 1];
        const double dz = position[gb + 2] - position[ga + 2];
        const double dist = __builtin_sqrt(dx * dx + dy * dy + dz * dz);
        const double inv = 1.0 / dist;  // > 0: the pass stages touching pairs only
        const double nx = dx * inv, ny = dy * inv, nz = dz * inv;
        const double ra = radius[ga], rb = radius[gb];
        const double delta = ra + rb - dist;
        // Levers from each centre to the contact point, mid-overlap.
        const double la = ra - 0.5 * delta, lb = -(rb - 0.5 * delta);
        const double lax = la * nx, lay = la * ny, laz = la * nz;
        const double lbx = lb * nx, lby = lb * ny, lbz = lb * nz;
        const double wax = spin[va], way = spin[va + 1], waz = spin[va + 2];
        const double wbx = spin[vb], wby = spin[vb + 1], wbz = spin[vb + 2];
        // u = v_B + ω_B × l_B − v_A − ω_A × l_A
        const double ux =
            (velocity[vb] - velocity[va]) + (wby * lbz - wbz * lby) - (way * laz - waz * lay);
        const double uy = (velocity[vb + 1] - velocity[va + 1]) + (wbz * lbx - wbx * lbz) -
                          (waz * lax - wax * laz);
        const double uz = (velocity[vb + 2] - velocity[va + 2]) + (wbx * lby - wby * lbx) -
                          (wax * lay - way * lax);
        const double da = 2.0 * ra, db = 2.0 * rb;
        const double qx = b.thx[k] + h * (wbx - wax);
        const double qy = b.thy[k] + h * (wby - way);
        const double qz = b.thz[k] + h * (wbz - waz);
        lawLane<MayRoll>(b, k, h, laneMaterial<Uniform>(b, k, one), nx, ny, nz, delta,
                         0.5 * (da * db / (da + db)), ux, uy, uz, qx, qy, qz);
        b.nx[k] = nx;
        b.ny[k] = ny;
        b.nz[k] = nz;
        b.overlap[k] = delta;
        b.strain[k] = delta / (ra + rb);
        const double fx = b.fx[k], fy = b.fy[k], fz = b.fz[k];
        b.tax[k] = (lay * fz - laz * fy) + b.mx[k];
        b.tay[k] = (laz * fx - lax * fz) + b.my[k];
        b.taz[k] = (lax * fy - lay * fx) + b.mz[k];
        b.tbx[k] = (lby * fz - lbz * fy) + b.mx[k];
        b.tby[k] = (lbz * fx - lbx * fz) + b.my[k];
        b.tbz[k] = (lbx * fy - lby * fx) + b.mz[k];
    }
}

/// Grains on walls: n, δ and the lever from the grain's centre come from the detection (in
/// nx..nz, overlap and dx..dz), dv..dz is the wall surface's velocity at the point minus the
/// grain's, ω_B the wall's; R* = r (a wall is a sphere of infinite diameter).
template <bool Uniform, bool MayRoll>
inline void wallsLoop(SmoothBatch& b, int count, double h) {
    const LaneMaterial one{b.material[0], b.material[1], b.material[2], b.material[3],
                           b.material[4]};
#pragma omp simd
    for (int k = 0; k < count; ++k) {
        const double nx = b.nx[k], ny = b.ny[k], nz = b.nz[k];
        const double lax = b.dx[k], lay = b.dy[k], laz = b.dz[k];
        const double ux = b.dvx[k] - (b.way[k] * laz - b.waz[k] * lay);
        const double uy = b.dvy[k] - (b.waz[k] * lax - b.wax[k] * laz);
        const double uz = b.dvz[k] - (b.wax[k] * lay - b.way[k] * lax);
        const double qx = b.thx[k] + h * (b.wbx[k] - b.wax[k]);
        const double qy = b.thy[k] + h * (b.wby[k] - b.way[k]);
        const double qz = b.thz[k] + h * (b.wbz[k] - b.waz[k]);
        lawLane<MayRoll>(b, k, h, laneMaterial<Uniform>(b, k, one), nx, ny, nz, b.overlap[k],
                         b.radiusA[k], ux, uy, uz, qx, qy, qz);
        const double fx = b.fx[k], fy = b.fy[k], fz = b.fz[k];
        b.tax[k] = (lay * fz - laz * fy) + b.mx[k];
        b.tay[k] = (laz * fx - lax * fz) + b.my[k];
        b.taz[k] = (lax * fy - lay * fx) + b.mz[k];
    }
}

inline void smoothBatchBody(SmoothBatch& b, int count, double h) {
    if (!b.uniform)
        pairsLoop<false, true>(b, count, h);
    else if (b.material[3] > 0.0)
        pairsLoop<true, true>(b, count, h);
    else
        pairsLoop<true, false>(b, count, h);
}

inline void smoothWallBatchBody(SmoothBatch& b, int count, double h) {
    if (!b.uniform)
        wallsLoop<false, true>(b, count, h);
    else if (b.material[3] > 0.0)
        wallsLoop<true, true>(b, count, h);
    else
        wallsLoop<true, false>(b, count, h);
}

}  // namespace
}  // namespace ndem
