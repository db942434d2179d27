// The smooth DEM's Hertz–Mindlin force on a batch of touching pairs at once, structure of
// arrays, one kernel per instruction set chosen at run time (as the PGS kernels are): the pass
// over the neighbour lists (dem/smooth_pairs.cpp) stages the pairs it finds, and the kernel's
// loop runs as many pairs per instruction as the vector registers hold.
#pragma once

namespace ndem {

enum class SimdLevel : int;

/// Up to kCapacity pairs: each array holds one value per pair (A the first body, B the second).
struct SmoothBatch {
    static constexpr int kCapacity = 64;  ///< 22 KB: the batch stays in the L1 cache
    using Column = double[kCapacity];
    /// Pairs: the grains, which the kernel reads by storage index itself (with gathers where
    /// the instruction set has them) rather than the pass staging a copy of each pair.
    struct Grains {
        const double* position = nullptr;  ///< x, y, z of grain i from position + i·stride
        const double* radius = nullptr;    ///< r of grain i at radius[i·stride]
        int stride = 0;                    ///< doubles from one grain's record to the next
        const double* velocity = nullptr;  ///< v of grain i from velocity + 3i
        const double* spin = nullptr;      ///< ω of grain i from spin + 3i
    } grains;
    alignas(64) int indexA[kCapacity];  ///< pairs: the grains' storage indices
    alignas(64) int indexB[kCapacity];
    // In, walls: the contact as the pass read it.
    alignas(64) Column dx, dy, dz;     ///< lever from the grain's centre to the point (m)
    alignas(64) Column radiusA;        ///< R* (m)
    alignas(64) Column dvx, dvy, dvz;  ///< v_wall − v_grain at the point (m/s)
    alignas(64) Column wax, way, waz;  ///< ω of the grain (rad/s)
    alignas(64) Column wbx, wby, wbz;  ///< ω of the wall (rad/s)
    /// One material pair for every contact of the batch (in `material`: E*, G*, μ, μ_r, c),
    /// or each contact's own (the columns below).
    bool uniform = false;
    double material[5] = {};
    alignas(64) Column elastic, shear;     ///< E* and G* of the pair (Pa)
    alignas(64) Column friction, rolling;  ///< μ, μ_r
    alignas(64) Column damping;            ///< c (s)
    // In and out: last step's springs, then this step's.
    alignas(64) Column xix, xiy, xiz;  ///< tangential spring ξ (m)
    alignas(64) Column thx, thy, thz;  ///< rolling spring θ (rad)
    // Out.
    alignas(64) Column nx, ny, nz;     ///< unit normal, A to B
    alignas(64) Column overlap;        ///< δ (m)
    alignas(64) Column strain;         ///< ε = δ/d, d = r_A + r_B (pairs only)
    alignas(64) Column normalForce;    ///< f_n ≥ 0 (N), 0 where δ ≤ 0
    alignas(64) Column ftx, fty, ftz;  ///< tangential force on B (N)
    alignas(64) Column mx, my, mz;     ///< rolling and twisting moment on B (N m)
    alignas(64) Column fx, fy, fz;     ///< f_n n + f_t, on B (N)
    alignas(64) Column tax, tay, taz;  ///< torque of the contact about A's centre (N m)
    alignas(64) Column tbx, tby, tbz;  ///< about B's centre
};

/// The Hertz law of dem/smooth_contact.hpp (δ > 0; zero forces and springs where δ ≤ 0)
/// for contacts [0, count) with time step h.
using SmoothBatchFunction = void (*)(SmoothBatch& batch, int count, double h);

/// The kernels for `level` (Auto: the widest the CPU runs), with their name.
struct SmoothBatchKernel {
    const char* name;
    /// Pairs of grains (in: the grains and their indices; out besides the law: n, δ, ε, both
    /// torques).
    SmoothBatchFunction pairs;
    /// Grains on walls (in: n, δ and the columns dx..wbz; out: torque on A).
    SmoothBatchFunction walls;
};
SmoothBatchKernel smoothBatchKernel(SimdLevel level);

// Defined in the per-instruction-set translation units.
void smoothPairsScalar(SmoothBatch& batch, int count, double h);
void smoothWallsScalar(SmoothBatch& batch, int count, double h);
void smoothPairsAvx2(SmoothBatch& batch, int count, double h);
void smoothWallsAvx2(SmoothBatch& batch, int count, double h);
void smoothPairsAvx512(SmoothBatch& batch, int count, double h);
void smoothWallsAvx512(SmoothBatch& batch, int count, double h);

}  // namespace ndem
