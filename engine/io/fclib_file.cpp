#include "io/fclib_file.hpp"

#include <hdf5.h>
extern "C" {  // fclib.h declares C functions without extern "C"
#include <fclib.h>
}

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <span>
#include <vector>

namespace ndem {

namespace {

/// FCLib reports failures through HDF5's error stack on stderr; ours are one line each.
struct QuietHdf5 {
    H5E_auto2_t func = nullptr;
    void* data = nullptr;
    QuietHdf5() {
        H5Eget_auto2(H5E_DEFAULT, &func, &data);
        H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
    }
    ~QuietHdf5() { H5Eset_auto2(H5E_DEFAULT, func, data); }
    QuietHdf5(const QuietHdf5&) = delete;
    QuietHdf5& operator=(const QuietHdf5&) = delete;
};

bool isHdf5(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    char magic[8] = {};
    in.read(magic, 8);
    static const char kMagic[8] = {'\x89', 'H', 'D', 'F', '\r', '\n', '\x1a', '\n'};
    return in.gcount() == 8 && std::equal(magic, magic + 8, kMagic);
}

}  // namespace

std::optional<Error> writeFclibLocal(const std::string& path, const LocalProblem& p,
                                     const std::string& title, const std::string& description) {
    if (const std::string bad = p.check(); !bad.empty())
        return Error{path + ": cannot write this problem: " + bad};
    // FCLib's problems are 3D (three rows per contact) or 2D (two).
    const int spacedim = p.dim.empty() ? 3 : p.dim.front();
    for (int d : p.dim)
        if (d != spacedim || d < 2)
            return Error{path + ": FCLib's problems have three rows per contact (3D) or two (2D)"};
    Eigen::SparseMatrix<double> w = p.W;
    w.makeCompressed();
    std::vector<int> outer(w.outerIndexPtr(), w.outerIndexPtr() + w.outerSize() + 1);
    std::vector<int> inner(w.innerIndexPtr(), w.innerIndexPtr() + w.nonZeros());
    std::vector<double> values(w.valuePtr(), w.valuePtr() + w.nonZeros());
    std::vector<double> q(p.q.data(), p.q.data() + p.q.size()), mu = p.mu;
    std::string titleText = title, descriptionText = description, math = "";

    fclib_matrix W{};
    W.nzmax = static_cast<int>(values.size());
    W.m = W.n = p.rows();
    W.p = outer.data();
    W.i = inner.data();
    W.x = values.data();
    W.nz = -1;  // compressed columns
    fclib_info info{titleText.data(), descriptionText.data(), math.data()};
    fclib_local local{};
    local.W = &W;
    local.mu = mu.data();
    local.q = q.data();
    local.spacedim = spacedim;
    local.info = &info;

    // Written next to the target and renamed, so a failure leaves no half-written file.
    const std::string partial = path + ".partial";
    std::error_code ec;
    std::filesystem::remove(partial, ec);
    QuietHdf5 quiet;
    if (!fclib_write_local(&local, partial.c_str())) {
        std::filesystem::remove(partial, ec);
        return Error{path + ": could not write the FCLib file"};
    }
    std::filesystem::rename(partial, path, ec);
    if (ec) return Error{path + ": " + ec.message()};
    return std::nullopt;
}

Expected<LocalProblem> readFclibLocal(const std::string& path) {
    std::error_code ec;
    if (!std::filesystem::is_regular_file(path, ec)) return Error{path + ": no such file"};
    if (!isHdf5(path)) return Error{path + ": not an HDF5 file (FCLib problems are HDF5)"};
    QuietHdf5 quiet;
    fclib_local* local = fclib_read_local(path.c_str());
    if (!local) return Error{path + ": no FCLib local problem in this file (fclib_local)"};
    struct Free {
        fclib_local* l;
        ~Free() { fclib_delete_local(l); }
    } free{local};
    const int d = local->spacedim;
    if (d != 2 && d != 3)
        return Error{path + ": spacedim " + std::to_string(d) + ": expected 2 or 3"};
    if (local->V || local->R || local->s)
        return Error{path + ": problems with equality constraints (V, R, s) are not supported"};
    const fclib_matrix* W = local->W;
    if (!W || W->m != W->n || W->m <= 0 || W->m % d != 0)
        return Error{path + ": W must be square with " + std::to_string(d) + " rows per contact"};
    if (!local->q || !local->mu) return Error{path + ": q or mu is missing"};

    LocalProblem p;
    const int n = W->m;
    std::vector<Eigen::Triplet<double>> entries;
    if (W->nz >= 0) {  // triplets
        for (int k = 0; k < W->nz; ++k) {
            if (W->p[k] < 0 || W->p[k] >= n || W->i[k] < 0 || W->i[k] >= n)
                return Error{path + ": W has an entry outside its " + std::to_string(n) + " rows"};
            entries.emplace_back(W->p[k], W->i[k], W->x[k]);
        }
    } else {  // compressed columns (−1) or rows (−2)
        const bool columns = W->nz == -1;
        const int count = W->p[n];
        if (count < 0 || count > W->nzmax) return Error{path + ": W's column pointers are broken"};
        for (int a = 0; a < n; ++a) {
            if (W->p[a] > W->p[a + 1]) return Error{path + ": W's pointers are not increasing"};
            for (int k = W->p[a]; k < W->p[a + 1]; ++k) {
                const int b = W->i[k];
                if (b < 0 || b >= n)
                    return Error{path + ": W has an entry outside its " + std::to_string(n) +
                                 " rows"};
                if (columns)
                    entries.emplace_back(b, a, W->x[k]);
                else
                    entries.emplace_back(a, b, W->x[k]);
            }
        }
    }
    p.W.resize(n, n);
    p.W.setFromTriplets(entries.begin(), entries.end());
    p.q = Eigen::Map<const Eigen::VectorXd>(local->q, n);
    for (int c = 0; c < n / d; ++c) {
        p.dim.push_back(d);
        p.offset.push_back(d * c);
        p.mu.push_back(local->mu[c]);
    }
    if (const std::string bad = p.check(); !bad.empty()) return Error{path + ": " + bad};
    for (double v : std::span<const double>(p.W.valuePtr(), static_cast<size_t>(p.W.nonZeros())))
        if (!std::isfinite(v)) return Error{path + ": W is not finite"};
    return p;
}

std::optional<Error> writeFclibSolution(const std::string& path, const Eigen::VectorXd& r,
                                        const Eigen::VectorXd& u) {
    std::vector<double> rr(r.data(), r.data() + r.size()), uu(u.data(), u.data() + u.size());
    fclib_solution s{};
    s.r = rr.data();
    s.u = uu.data();
    QuietHdf5 quiet;
    if (!fclib_write_solution(&s, path.c_str()))
        return Error{path + ": could not write the solution"};
    return std::nullopt;
}

}  // namespace ndem
