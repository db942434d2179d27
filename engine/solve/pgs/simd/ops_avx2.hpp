// Four lanes of doubles with AVX2 and FMA. Only the translation unit built with -mavx2 -mfma
// (pgs_kernel_avx2.cpp) includes this file.
#pragma once

#include <immintrin.h>

namespace ndem::simd {

struct Avx2Ops {
    static constexpr int kWidth = 4;
    using T = double;
    static constexpr int kBodyStride = 16;  ///< doubles between SolverBody records
    static constexpr const char* kName = "avx2";
    using D = __m256d;

    static D load(const double* p) { return _mm256_load_pd(p); }
    static void store(double* p, D x) { _mm256_store_pd(p, x); }
    static D splat(double x) { return _mm256_set1_pd(x); }
    static D zero() { return _mm256_setzero_pd(); }
    static D mulAdd(D a, D b, D c) { return _mm256_fmadd_pd(a, b, c); }
    static D mulSub(D a, D b, D c) { return _mm256_fnmadd_pd(a, b, c); }
    static D max(D a, D b) { return _mm256_max_pd(a, b); }
    static D min(D a, D b) { return _mm256_min_pd(a, b); }
    static D abs(D a) { return _mm256_andnot_pd(_mm256_set1_pd(-0.0), a); }
    static D sqrt(D a) { return _mm256_sqrt_pd(a); }
    static D selectGreater(D a, D b, D x, D y) {
        return _mm256_blendv_pd(y, x, _mm256_cmp_pd(a, b, _CMP_GT_OQ));
    }
    static double sum(D a) {
        const __m128d s = _mm_add_pd(_mm256_castpd256_pd128(a), _mm256_extractf128_pd(a, 1));
        return _mm_cvtsd_f64(_mm_add_sd(s, _mm_unpackhi_pd(s, s)));
    }
    static double maxLane(D a) {
        const __m128d s = _mm_max_pd(_mm256_castpd256_pd128(a), _mm256_extractf128_pd(a, 1));
        return _mm_cvtsd_f64(_mm_max_sd(s, _mm_unpackhi_pd(s, s)));
    }

    /// Rows r0..r3 → columns: c[k] = (r0[k], r1[k], r2[k], r3[k]).
    static void transpose(D r0, D r1, D r2, D r3, D& c0, D& c1, D& c2, D& c3) {
        const D t0 = _mm256_unpacklo_pd(r0, r1), t1 = _mm256_unpackhi_pd(r0, r1);
        const D t2 = _mm256_unpacklo_pd(r2, r3), t3 = _mm256_unpackhi_pd(r2, r3);
        c0 = _mm256_permute2f128_pd(t0, t2, 0x20);
        c1 = _mm256_permute2f128_pd(t1, t3, 0x20);
        c2 = _mm256_permute2f128_pd(t0, t2, 0x31);
        c3 = _mm256_permute2f128_pd(t1, t3, 0x31);
    }
    static void loadBodies(const double* const* body, D out[8]) {
        transpose(_mm256_load_pd(body[0]), _mm256_load_pd(body[1]), _mm256_load_pd(body[2]),
                  _mm256_load_pd(body[3]), out[0], out[1], out[2], out[3]);
        transpose(_mm256_load_pd(body[0] + 4), _mm256_load_pd(body[1] + 4),
                  _mm256_load_pd(body[2] + 4), _mm256_load_pd(body[3] + 4), out[4], out[5], out[6],
                  out[7]);
    }
    static void storeBodies(double* const* body, const bool* write, const D in[8]) {
        D lo[4], hi[4];
        transpose(in[0], in[1], in[2], in[3], lo[0], lo[1], lo[2], lo[3]);
        transpose(in[4], in[5], in[6], in[7], hi[0], hi[1], hi[2], hi[3]);
        for (int l = 0; l < 4; ++l) {
            if (!write[l]) continue;
            _mm256_store_pd(body[l], lo[l]);
            _mm256_store_pd(body[l] + 4, hi[l]);
        }
    }
};

}  // namespace ndem::simd

namespace ndem::simd {

/// Eight lanes of floats with AVX2 and FMA (solver.precision = float).
struct Avx2FloatOps {
    using T = float;
    static constexpr int kBodyStride = 8;
    static constexpr int kWidth = 8;
    static constexpr const char* kName = "avx2";
    using D = __m256;

    static D load(const float* p) { return _mm256_load_ps(p); }
    static void store(float* p, D x) { _mm256_store_ps(p, x); }
    static D splat(double x) { return _mm256_set1_ps(static_cast<float>(x)); }
    static D zero() { return _mm256_setzero_ps(); }
    static D mulAdd(D a, D b, D c) { return _mm256_fmadd_ps(a, b, c); }
    static D mulSub(D a, D b, D c) { return _mm256_fnmadd_ps(a, b, c); }
    static D max(D a, D b) { return _mm256_max_ps(a, b); }
    static D min(D a, D b) { return _mm256_min_ps(a, b); }
    static D abs(D a) { return _mm256_andnot_ps(_mm256_set1_ps(-0.0f), a); }
    static D sqrt(D a) { return _mm256_sqrt_ps(a); }
    static D selectGreater(D a, D b, D x, D y) {
        return _mm256_blendv_ps(y, x, _mm256_cmp_ps(a, b, _CMP_GT_OQ));
    }
    static double sum(D a) {
        // In doubles, pairwise in a fixed order.
        const __m256d s = _mm256_add_pd(_mm256_cvtps_pd(_mm256_castps256_ps128(a)),
                                        _mm256_cvtps_pd(_mm256_extractf128_ps(a, 1)));
        return Avx2Ops::sum(s);
    }
    static double maxLane(D a) {
        __m128 s = _mm_max_ps(_mm256_castps256_ps128(a), _mm256_extractf128_ps(a, 1));
        s = _mm_max_ps(s, _mm_movehl_ps(s, s));
        s = _mm_max_ss(s, _mm_shuffle_ps(s, s, 1));
        return _mm_cvtss_f32(s);
    }

    /// 8×8 transpose (its own inverse): rows r[j] → columns c[k] = (r0[k], …, r7[k]).
    static void transpose(const D r[8], D c[8]) {
        D t[8], u[8];
        for (int j = 0; j < 8; j += 2) {
            t[j] = _mm256_unpacklo_ps(r[j], r[j + 1]);
            t[j + 1] = _mm256_unpackhi_ps(r[j], r[j + 1]);
        }
        for (int j = 0; j < 8; j += 4) {
            u[j] = _mm256_shuffle_ps(t[j], t[j + 2], 0x44);
            u[j + 1] = _mm256_shuffle_ps(t[j], t[j + 2], 0xEE);
            u[j + 2] = _mm256_shuffle_ps(t[j + 1], t[j + 3], 0x44);
            u[j + 3] = _mm256_shuffle_ps(t[j + 1], t[j + 3], 0xEE);
        }
        for (int k = 0; k < 4; ++k) {
            c[k] = _mm256_permute2f128_ps(u[k], u[k + 4], 0x20);
            c[k + 4] = _mm256_permute2f128_ps(u[k], u[k + 4], 0x31);
        }
    }
    static void loadBodies(const float* const* body, D out[8]) {
        D rows[8];
        for (int l = 0; l < 8; ++l)
            rows[l] = _mm256_load_ps(body[l]);
        transpose(rows, out);
    }
    static void storeBodies(float* const* body, const bool* write, const D in[8]) {
        D rows[8];
        transpose(in, rows);
        for (int l = 0; l < 8; ++l)
            if (write[l]) _mm256_store_ps(body[l], rows[l]);
    }
};

}  // namespace ndem::simd
