// One lane at a time: the portable path of the block kernel (pgs_kernel.hpp), and the reference
// the SIMD paths are tested against. No fused multiply-add, so the order of rounding is the
// plain C++ one on every machine.
#pragma once

#include <cstdint>

namespace ndem::simd {

struct ScalarOps {
    static constexpr int kWidth = 1;
    using T = double;
    static constexpr int kBodyStride = 16;  ///< doubles between SolverBody records
    static constexpr const char* kName = "scalar";
    using D = double;

    static D load(const double* p) { return *p; }
    static void store(double* p, D x) { *p = x; }
    static D splat(double x) { return x; }
    static D zero() { return 0.0; }
    static D mulAdd(D a, D b, D c) { return a * b + c; }  ///< a b + c
    static D mulSub(D a, D b, D c) { return c - a * b; }  ///< c − a b
    static D max(D a, D b) { return a > b ? a : b; }
    static D min(D a, D b) { return a < b ? a : b; }
    static D abs(D a) { return __builtin_fabs(a); }
    static D sqrt(D a) { return __builtin_sqrt(a); }
    /// a > b ? x : y, lane by lane.
    static D selectGreater(D a, D b, D x, D y) { return a > b ? x : y; }
    static double sum(D a) { return a; }
    static double maxLane(D a) { return a; }

    /// The first eight doubles of each body record (v, ω, 1/m, 1/I): out[k] holds field k.
    static void loadBodies(const double* const* body, D out[8]) {
        for (int k = 0; k < 8; ++k)
            out[k] = body[0][k];
    }
    /// Writes v and ω (fields 0–5) back; `write` false leaves the body alone (static).
    static void storeBodies(double* const* body, const bool* write, const D in[8]) {
        if (!write[0]) return;
        for (int k = 0; k < 6; ++k)
            body[0][k] = in[k];
    }
};

}  // namespace ndem::simd

namespace ndem::simd {

/// One float lane at a time: the portable path of the float block kernel (solver.precision).
struct ScalarFloatOps {
    using T = float;
    static constexpr int kBodyStride = 8;  ///< floats between FloatBody records
    static constexpr int kWidth = 1;
    static constexpr const char* kName = "scalar";
    using D = float;

    static D load(const float* p) { return *p; }
    static void store(float* p, D x) { *p = x; }
    static D splat(double x) { return static_cast<float>(x); }
    static D zero() { return 0.0f; }
    static D mulAdd(D a, D b, D c) { return a * b + c; }
    static D mulSub(D a, D b, D c) { return c - a * b; }
    static D max(D a, D b) { return a > b ? a : b; }
    static D min(D a, D b) { return a < b ? a : b; }
    static D abs(D a) { return __builtin_fabsf(a); }
    static D sqrt(D a) { return __builtin_sqrtf(a); }
    static D selectGreater(D a, D b, D x, D y) { return a > b ? x : y; }
    static double sum(D a) { return a; }
    static double maxLane(D a) { return a; }

    static void loadBodies(const float* const* body, D out[8]) {
        for (int k = 0; k < 8; ++k)
            out[k] = body[0][k];
    }
    static void storeBodies(float* const* body, const bool* write, const D in[8]) {
        if (!write[0]) return;
        for (int k = 0; k < 6; ++k)
            body[0][k] = in[k];
    }
};

}  // namespace ndem::simd
