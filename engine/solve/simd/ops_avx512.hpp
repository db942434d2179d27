// Eight lanes of doubles with AVX-512F/DQ. Only the translation unit built with -mavx512f
// -mavx512dq (pgs_kernel_avx512.cpp) includes this file.
#pragma once

#include <immintrin.h>

namespace ndem::simd {

struct Avx512Ops {
    static constexpr int kWidth = 8;
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
        for (int l = 0; l < 8; ++l) rows[l] = _mm512_load_pd(body[l]);
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
