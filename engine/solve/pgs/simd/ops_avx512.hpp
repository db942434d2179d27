// Eight lanes of doubles with AVX-512F/DQ. Only the translation unit built with -mavx512f
// -mavx512dq (pgs_kernel_avx512.cpp) includes this file.
#pragma once

#include <immintrin.h>

namespace ndem::simd {

struct Avx512Ops {
    static constexpr int kWidth = 8;
    using T = double;
    static constexpr int kBodyStride = 16;  ///< doubles between SolverBody records
    static constexpr const char* kName = "avx512";
    using D = __m512d;

    static D load(const double* p) { return _mm512_load_pd(p); }
    static void store(double* p, D x) { _mm512_store_pd(p, x); }
    static D splat(double x) { return _mm512_set1_pd(x); }
    static D zero() { return _mm512_setzero_pd(); }
    static D mulAdd(D a, D b, D c) { return _mm512_fmadd_pd(a, b, c); }
    static D mulSub(D a, D b, D c) { return _mm512_fnmadd_pd(a, b, c); }
    static D max(D a, D b) { return _mm512_max_pd(a, b); }
    static D min(D a, D b) { return _mm512_min_pd(a, b); }
    static D abs(D a) { return _mm512_abs_pd(a); }
    static D sqrt(D a) { return _mm512_sqrt_pd(a); }
    static D selectGreater(D a, D b, D x, D y) {
        return _mm512_mask_blend_pd(_mm512_cmp_pd_mask(a, b, _CMP_GT_OQ), y, x);
    }
    static double sum(D a) {
        // Pairwise in a fixed order (not _mm512_reduce_add_pd, whose order is unspecified).
        const __m256d s = _mm256_add_pd(_mm512_castpd512_pd256(a), _mm512_extractf64x4_pd(a, 1));
        const __m128d t = _mm_add_pd(_mm256_castpd256_pd128(s), _mm256_extractf128_pd(s, 1));
        return _mm_cvtsd_f64(_mm_add_sd(t, _mm_unpackhi_pd(t, t)));
    }
    static double maxLane(D a) { return _mm512_reduce_max_pd(a); }

    /// 8×8 transpose: rows r[j] (body j's record) → columns c[k] (field k of every body).
    static void transpose(const D r[8], D c[8]) {
        D t[8], u[8];
        for (int j = 0; j < 8; j += 2) {
            t[j] = _mm512_unpacklo_pd(r[j], r[j + 1]);      // r_j0 r_j+1,0 r_j2 ...
            t[j + 1] = _mm512_unpackhi_pd(r[j], r[j + 1]);  // r_j1 r_j+1,1 r_j3 ...
        }
        for (int j = 0; j < 8; j += 4) {
            u[j] = _mm512_shuffle_f64x2(t[j], t[j + 2], 0x88);          // fields 0, 4
            u[j + 1] = _mm512_shuffle_f64x2(t[j], t[j + 2], 0xDD);      // fields 2, 6
            u[j + 2] = _mm512_shuffle_f64x2(t[j + 1], t[j + 3], 0x88);  // fields 1, 5
            u[j + 3] = _mm512_shuffle_f64x2(t[j + 1], t[j + 3], 0xDD);  // fields 3, 7
        }
        c[0] = _mm512_shuffle_f64x2(u[0], u[4], 0x88);
        c[4] = _mm512_shuffle_f64x2(u[0], u[4], 0xDD);
        c[2] = _mm512_shuffle_f64x2(u[1], u[5], 0x88);
        c[6] = _mm512_shuffle_f64x2(u[1], u[5], 0xDD);
        c[1] = _mm512_shuffle_f64x2(u[2], u[6], 0x88);
        c[5] = _mm512_shuffle_f64x2(u[2], u[6], 0xDD);
        c[3] = _mm512_shuffle_f64x2(u[3], u[7], 0x88);
        c[7] = _mm512_shuffle_f64x2(u[3], u[7], 0xDD);
    }
    static void loadBodies(const double* const* body, D out[8]) {
        D rows[8];
        for (int l = 0; l < 8; ++l)
            rows[l] = _mm512_load_pd(body[l]);
        transpose(rows, out);
    }
    static void storeBodies(double* const* body, const bool* write, const D in[8]) {
        D rows[8];
        transpose(in, rows);
        for (int l = 0; l < 8; ++l)
            if (write[l]) _mm512_store_pd(body[l], rows[l]);
    }
};

}  // namespace ndem::simd

namespace ndem::simd {

/// Sixteen lanes of floats with AVX-512F/DQ (solver.precision = float).
struct Avx512FloatOps {
    using T = float;
    static constexpr int kBodyStride = 8;
    static constexpr int kWidth = 16;
    static constexpr const char* kName = "avx512";
    using D = __m512;

    static D load(const float* p) { return _mm512_load_ps(p); }
    static void store(float* p, D x) { _mm512_store_ps(p, x); }
    static D splat(double x) { return _mm512_set1_ps(static_cast<float>(x)); }
    static D zero() { return _mm512_setzero_ps(); }
    static D mulAdd(D a, D b, D c) { return _mm512_fmadd_ps(a, b, c); }
    static D mulSub(D a, D b, D c) { return _mm512_fnmadd_ps(a, b, c); }
    static D max(D a, D b) { return _mm512_max_ps(a, b); }
    static D min(D a, D b) { return _mm512_min_ps(a, b); }
    static D abs(D a) { return _mm512_abs_ps(a); }
    static D sqrt(D a) { return _mm512_sqrt_ps(a); }
    static D selectGreater(D a, D b, D x, D y) {
        return _mm512_mask_blend_ps(_mm512_cmp_ps_mask(a, b, _CMP_GT_OQ), y, x);
    }
    static double sum(D a) {
        // In doubles, pairwise in a fixed order.
        const __m512d s = _mm512_add_pd(_mm512_cvtps_pd(_mm512_castps512_ps256(a)),
                                        _mm512_cvtps_pd(_mm512_extractf32x8_ps(a, 1)));
        return Avx512Ops::sum(s);
    }
    static double maxLane(D a) { return _mm512_reduce_max_ps(a); }

    /// Per 128-bit chunk, a 4×4 transpose of r0..r3 (its own inverse).
    static void transpose4(D r0, D r1, D r2, D r3, D& c0, D& c1, D& c2, D& c3) {
        const D a0 = _mm512_unpacklo_ps(r0, r1), a1 = _mm512_unpackhi_ps(r0, r1);
        const D a2 = _mm512_unpacklo_ps(r2, r3), a3 = _mm512_unpackhi_ps(r2, r3);
        c0 = _mm512_shuffle_ps(a0, a2, 0x44);
        c1 = _mm512_shuffle_ps(a0, a2, 0xEE);
        c2 = _mm512_shuffle_ps(a1, a3, 0x44);
        c3 = _mm512_shuffle_ps(a1, a3, 0xEE);
    }
    /// Chunks (0, 2) of a and b interleaved as a0 b0 a2 b2, and chunks (1, 3) as a1 b1 a3 b3;
    /// applied twice it gives back a and b.
    static void interleave(D a, D b, D& lo, D& hi) {
        const __m512i first =
            _mm512_setr_epi32(0, 1, 2, 3, 16, 17, 18, 19, 8, 9, 10, 11, 24, 25, 26, 27);
        const __m512i second =
            _mm512_setr_epi32(4, 5, 6, 7, 20, 21, 22, 23, 12, 13, 14, 15, 28, 29, 30, 31);
        lo = _mm512_permutex2var_ps(a, first, b);
        hi = _mm512_permutex2var_ps(a, second, b);
    }
    /// Sixteen 8-float records → eight columns: z[j] holds record j in its low half and record
    /// j + 8 in its high half; 4×4 transposes per chunk give, for records 0–3 (and 8–11 in
    /// the high half), fields k and k + 4 in chunks 0 and 1; interleaving with records 4–7
    /// puts field k of records 0–15 in order.
    static void loadBodies(const float* const* body, D out[8]) {
        D z[8];
        for (int j = 0; j < 8; ++j)
            z[j] = _mm512_insertf32x8(_mm512_castps256_ps512(_mm256_load_ps(body[j])),
                                      _mm256_load_ps(body[j + 8]), 1);
        D t[8];
        transpose4(z[0], z[1], z[2], z[3], t[0], t[1], t[2], t[3]);
        transpose4(z[4], z[5], z[6], z[7], t[4], t[5], t[6], t[7]);
        for (int k = 0; k < 4; ++k)
            interleave(t[k], t[k + 4], out[k], out[k + 4]);
    }
    static void storeBodies(float* const* body, const bool* write, const D in[8]) {
        D t[8], z[8];
        for (int k = 0; k < 4; ++k)
            interleave(in[k], in[k + 4], t[k], t[k + 4]);
        transpose4(t[0], t[1], t[2], t[3], z[0], z[1], z[2], z[3]);
        transpose4(t[4], t[5], t[6], t[7], z[4], z[5], z[6], z[7]);
        for (int j = 0; j < 8; ++j) {
            if (write[j]) _mm256_store_ps(body[j], _mm512_castps512_ps256(z[j]));
            if (write[j + 8]) _mm256_store_ps(body[j + 8], _mm512_extractf32x8_ps(z[j], 1));
        }
    }
};

}  // namespace ndem::simd
