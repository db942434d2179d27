#include "solve/nscd/null_space.hpp"

#include "solve/rows/contact_problem.hpp"

#include <Eigen/OrderingMethods>
#include <Eigen/SparseCholesky>
#include <Eigen/SparseQR>

#include <algorithm>
#include <deque>

namespace ndem {

using ColumnMatrix = Eigen::SparseMatrix<double>;
using QrType = Eigen::SparseQR<ColumnMatrix, Eigen::COLAMDOrdering<int>>;

/// Tag for the one specialisation below.
struct ReflectorAccess {};

}  // namespace ndem

// Eigen's SparseQR befriends every SparseQR_QProduct: this one reads its Householder
// reflectors, so that N x and Nᵀ x apply only the first r (Eigen's own product applies all
// min(n, m), the zero ones included) and the representation's size can be counted.
template <>
struct Eigen::SparseQR_QProduct<ndem::QrType, ndem::ReflectorAccess> {
    static const ndem::ColumnMatrix& reflectors(const ndem::QrType& qr) { return qr.m_Q; }
    static const Eigen::VectorXd& coefficients(const ndem::QrType& qr) { return qr.m_hcoeffs; }
};

namespace ndem {

namespace {
using Access = Eigen::SparseQR_QProduct<QrType, ReflectorAccess>;
}

struct NullSpace::Factor {
    /// From H: Hᵀ (kept rows × kept unknowns) and the LDLᵀ of H Hᵀ + δI; Z = I − Hᵀ(HHᵀ)⁻¹H.
    ColumnMatrix ht;
    Eigen::SimplicialLDLT<ColumnMatrix> hht;
    bool cholesky = false;
    /// From W: its Householder QR, Z = Q₂Q₂ᵀ.
    QrType qr;

    /// Z's blocks by the rows' leverages, Z_ij = δ_ij − x_iᵀD⁻¹x_j with x_i = L⁻¹P h_i and h_i
    /// row i of Hᵀ: each x_i a sparse triangular solve that visits only the columns of L the
    /// row reaches (its ancestors in the elimination tree), so Z's diagonal costs far less than
    /// a product with Z per row (Alart 2014 Table 6's "compute DZ").
    void leverages(const std::vector<int>& first, const std::vector<int>& count,
                   const std::vector<int>& keptIndex,
                   std::vector<std::array<double, 9>>& blocks) const {
        const ColumnMatrix& l = hht.matrixL().nestedExpression();
        const Eigen::VectorXd d = hht.vectorD();
        const auto& perm = hht.permutationP().indices();
        const ColumnMatrix h = ht.transpose();  // column i: row i of Hᵀ
        const Eigen::Index m = l.rows();
        std::vector<Eigen::VectorXd> x(3, Eigen::VectorXd::Zero(m));
        std::vector<std::vector<int>> reach(3);
        std::vector<char> mark(static_cast<size_t>(m), 0);
        std::vector<int> stack;
        auto solve = [&](int row, int slot) {
            std::vector<int>& r = reach[static_cast<size_t>(slot)];
            Eigen::VectorXd& v = x[static_cast<size_t>(slot)];
            r.clear();
            for (ColumnMatrix::InnerIterator it(h, row); it; ++it) {
                const int k = perm.size() ? perm[it.row()] : static_cast<int>(it.row());
                v[k] = it.value();
                if (!mark[static_cast<size_t>(k)]) {
                    mark[static_cast<size_t>(k)] = 1;
                    stack.push_back(k);
                }
                while (!stack.empty()) {  // the columns of L this row reaches
                    const int j = stack.back();
                    stack.pop_back();
                    r.push_back(j);
                    for (ColumnMatrix::InnerIterator c(l, j); c; ++c) {
                        const int i = static_cast<int>(c.row());
                        if (i > j && !mark[static_cast<size_t>(i)]) {
                            mark[static_cast<size_t>(i)] = 1;
                            stack.push_back(i);
                        }
                    }
                }
            }
            std::sort(r.begin(), r.end());
            for (const int j : r) {
                mark[static_cast<size_t>(j)] = 0;
                const double xj = v[j];
                if (xj == 0.0) continue;
                for (ColumnMatrix::InnerIterator c(l, j); c; ++c)
                    if (c.row() > j) v[c.row()] -= c.value() * xj;
            }
        };
        for (size_t b = 0; b < first.size(); ++b) {
            const int rowsOf = std::min(count[b], 3);
            int k[3] = {-1, -1, -1};
            for (int i = 0; i < rowsOf; ++i) {
                k[i] = keptIndex[static_cast<size_t>(first[b] + i)];
                if (k[i] >= 0) solve(k[i], i);
            }
            for (int i = 0; i < rowsOf; ++i)
                for (int j = 0; j < rowsOf; ++j) {
                    if (k[i] < 0 || k[j] < 0) continue;
                    double sum = 0.0;
                    for (const int c : reach[static_cast<size_t>(i)])
                        sum += x[static_cast<size_t>(i)][c] * x[static_cast<size_t>(j)][c] / d[c];
                    blocks[b][static_cast<size_t>(3 * i + j)] = (i == j ? 1.0 : 0.0) - sum;
                }
            for (int i = 0; i < rowsOf; ++i)
                if (k[i] >= 0)
                    for (const int c : reach[static_cast<size_t>(i)])
                        x[static_cast<size_t>(i)][c] = 0.0;
        }
    }
    /// x ← Qᵀ x (forward) or Q x, over the first r reflectors.
    void apply(Eigen::VectorXd& x, int rank, bool transpose) const {
        const ColumnMatrix& q = Access::reflectors(qr);
        const Eigen::VectorXd& h = Access::coefficients(qr);
        auto reflect = [&](int k) {
            double tau = 0.0;
            for (ColumnMatrix::InnerIterator it(q, k); it; ++it)
                tau += it.value() * x[it.row()];
            if (tau == 0.0) return;
            tau *= h[k];
            for (ColumnMatrix::InnerIterator it(q, k); it; ++it)
                x[it.row()] -= tau * it.value();
        };
        if (transpose)
            for (int k = 0; k < rank; ++k)
                reflect(k);
        else
            for (int k = rank - 1; k >= 0; --k)
                reflect(k);
    }
};

NullSpace::NullSpace() = default;
NullSpace::~NullSpace() = default;
NullSpace::NullSpace(NullSpace&&) noexcept = default;
NullSpace& NullSpace::operator=(NullSpace&&) noexcept = default;

void NullSpace::factor(const ColumnMatrix& reduced, bool fromH) {
    m_factor = std::make_unique<Factor>();
    m_keptColumns = static_cast<int>(reduced.cols());
    m_rank = 0;
    if (reduced.rows() == 0 || reduced.cols() == 0) {
        // nothing to factor: every kept row is its own network (or none is kept)
    } else if (fromH) {
        // H Hᵀ is positive definite once floating grains have left (Alart 2014 Sec. 5.3.2),
        // but mechanisms may be left (a frictionless sphere's spin, grains in a chain with
        // more unknowns than rows, speculative pairs of grains in free fall). With
        // H Hᵀ + δI, Z_δ = I − Hᵀ(HHᵀ + δI)⁻¹H = Σ δ/(σ² + δ) u uᵀ over H's singular pairs:
        // a mechanism (σ = 0) changes nothing, a direction H barely sees (σ² ≲ δ) counts as
        // null, and Z_δ is positive semidefinite with eigenvalues in [0, 1] whatever the
        // rounding — what the regularisation W + ωZ needs. Columns are scaled to unit length
        // first (a rotation's column is a lever long, a translation's 1), so that δ is
        // relative to each.
        Factor& f = *m_factor;
        f.cholesky = true;
        f.ht = reduced;
        for (int k = 0; k < f.ht.outerSize(); ++k) {
            const double norm = f.ht.col(k).norm();
            if (norm > 0.0) f.ht.col(k) /= norm;
        }
        constexpr double kDelta = 1e-10;
        ColumnMatrix hht = ColumnMatrix(f.ht.transpose()) * f.ht;
        for (int k = 0; k < hht.outerSize(); ++k)
            hht.coeffRef(k, k) += kDelta;
        f.hht.compute(hht);
        // The rank as the pivots show it (a dependent column's pivot is δ): for reports.
        const Eigen::VectorXd d = f.hht.vectorD();
        for (Eigen::Index k = 0; k < d.size(); ++k)
            m_rank += d[k] > 1e3 * kDelta;
        m_rank = std::min(m_rank, keptRows());
        m_nonZeros = f.hht.matrixL().nestedExpression().nonZeros();
    } else {
        m_factor->qr.compute(reduced);
        m_rank = static_cast<int>(m_factor->qr.rank());
        m_nonZeros =
            Access::reflectors(m_factor->qr).nonZeros() + m_factor->qr.matrixR().nonZeros();
    }
    m_nullity = keptRows() - m_rank;
}

NullSpace NullSpace::ofContacts(const ContactProblem& p, bool removeFloating) {
    NullSpace s;
    s.m_rows = p.rows();
    const int bodies = static_cast<int>(p.movableBody.size());
    // Peel floating grains: a grain with one contact or none, and its contact; again until
    // none is left (what hung on a removed grain may float now).
    std::vector<int> count(static_cast<size_t>(bodies), 0);
    std::vector<std::vector<int>> contactsOf(static_cast<size_t>(bodies));
    for (int c = 0; c < p.contacts(); ++c)
        for (const int b : {p.bodyA[static_cast<size_t>(c)], p.bodyB[static_cast<size_t>(c)]})
            if (b >= 0) {
                ++count[static_cast<size_t>(b)];
                contactsOf[static_cast<size_t>(b)].push_back(c);
            }
    std::vector<char> bodyAlive(static_cast<size_t>(bodies), 1);
    std::vector<char> contactAlive(static_cast<size_t>(p.contacts()), 1);
    std::deque<int> queue;
    for (int b = 0; b < bodies; ++b)
        if (removeFloating && count[static_cast<size_t>(b)] <= 1) queue.push_back(b);
    for (int b = 0; b < bodies; ++b)
        if (count[static_cast<size_t>(b)] == 0) ++s.m_floatingBodies;
    while (!queue.empty()) {
        const int b = queue.front();
        queue.pop_front();
        if (!bodyAlive[static_cast<size_t>(b)]) continue;
        bodyAlive[static_cast<size_t>(b)] = 0;
        for (const int c : contactsOf[static_cast<size_t>(b)]) {
            if (!contactAlive[static_cast<size_t>(c)]) continue;
            ++s.m_singleBodies;
            contactAlive[static_cast<size_t>(c)] = 0;
            for (const int o : {p.bodyA[static_cast<size_t>(c)], p.bodyB[static_cast<size_t>(c)]})
                if (o >= 0 && o != b && bodyAlive[static_cast<size_t>(o)] &&
                    --count[static_cast<size_t>(o)] <= 1)
                    queue.push_back(o);
        }
    }
    // The reduced Hᵀ: kept rows against the kept bodies' unknowns (and the sliders'), with
    // the columns no kept row touches left out.
    const int unknowns = static_cast<int>(p.J.cols());
    std::vector<int> column(static_cast<size_t>(unknowns), -1);
    std::vector<Eigen::Triplet<double>> t;
    for (int c = 0; c < p.contacts(); ++c) {
        if (!contactAlive[static_cast<size_t>(c)]) continue;
        // Friction rows only: Alart's H has no rolling rows, and a rolling row's W (1/I, a
        // lever squared above a normal row's) would set ‖W‖ and with it ω.
        for (int i = 0; i < p.dim[static_cast<size_t>(c)]; ++i) {
            const int row = p.offset[static_cast<size_t>(c)] + i;
            const int kept = static_cast<int>(s.m_kept.size());
            s.m_kept.push_back(row);
            // In impulses (ContactProblem::physical): a Hertz row's scale s ~ √δ would make
            // the normal rows a thousandth of the others and H Hᵀ ill-conditioned.
            const double unscale = i == 0 ? 1.0 / p.scale[static_cast<size_t>(c)] : 1.0;
            for (ContactProblem::Sparse::InnerIterator it(p.J, row); it; ++it) {
                const int u = static_cast<int>(it.col());
                if (u < 6 * bodies && !bodyAlive[static_cast<size_t>(u / 6)]) continue;
                if (it.value() == 0.0) continue;
                int& k = column[static_cast<size_t>(u)];
                if (k < 0) k = s.m_keptColumns++;
                t.emplace_back(kept, k, it.value() * unscale);
            }
        }
    }
    ColumnMatrix reduced(s.keptRows(), s.m_keptColumns);
    reduced.setFromTriplets(t.begin(), t.end());
    reduced.makeCompressed();
    s.factor(reduced, true);
    return s;
}

NullSpace NullSpace::ofOperator(const Eigen::SparseMatrix<double>& w) {
    NullSpace s;
    s.m_rows = static_cast<int>(w.rows());
    for (int i = 0; i < s.m_rows; ++i)
        s.m_kept.push_back(i);
    ColumnMatrix a = w;
    a.prune(0.0);
    a.makeCompressed();
    s.factor(a, false);
    return s;
}

Eigen::VectorXd NullSpace::gatherKept(const Eigen::VectorXd& x) const {
    Eigen::VectorXd k(keptRows());
    for (int i = 0; i < keptRows(); ++i)
        k[i] = x[m_kept[static_cast<size_t>(i)]];
    return k;
}

void NullSpace::projectKept(Eigen::VectorXd& k) const {
    const Factor& f = *m_factor;
    if (f.cholesky) {
        const Eigen::VectorXd y = f.hht.solve(Eigen::VectorXd(f.ht.transpose() * k));
        k -= f.ht * y;
        return;
    }
    f.apply(k, m_rank, true);
    k.head(m_rank).setZero();
    f.apply(k, m_rank, false);
}

Eigen::VectorXd NullSpace::project(const Eigen::VectorXd& x) const {
    Eigen::VectorXd out = Eigen::VectorXd::Zero(m_rows);
    if (m_nullity == 0) return out;
    Eigen::VectorXd k = gatherKept(x);
    projectKept(k);
    for (int i = 0; i < keptRows(); ++i)
        out[m_kept[static_cast<size_t>(i)]] = k[i];
    return out;
}

std::vector<std::array<double, 9>> NullSpace::diagonalBlocks(const std::vector<int>& first,
                                                             const std::vector<int>& count) const {
    std::vector<std::array<double, 9>> blocks(first.size());
    for (auto& b : blocks)
        b.fill(0.0);
    if (m_nullity == 0) return blocks;
    std::vector<int> keptIndex(static_cast<size_t>(m_rows), -1);
    for (int i = 0; i < keptRows(); ++i)
        keptIndex[static_cast<size_t>(m_kept[static_cast<size_t>(i)])] = i;
    if (m_factor->cholesky) {
        m_factor->leverages(first, count, keptIndex, blocks);
        return blocks;
    }
    // Z e_j for the block's rows, read on the block's rows.
    Eigen::VectorXd e(keptRows());
    for (size_t b = 0; b < first.size(); ++b) {
        const int d = std::min(count[b], 3);
        int k[3] = {-1, -1, -1};
        for (int i = 0; i < d; ++i)
            k[i] = keptIndex[static_cast<size_t>(first[b] + i)];
        for (int j = 0; j < d; ++j) {
            if (k[j] < 0) continue;
            e.setZero();
            e[k[j]] = 1.0;
            projectKept(e);
            for (int i = 0; i < d; ++i)
                if (k[i] >= 0) blocks[b][static_cast<size_t>(3 * i + j)] = e[k[i]];
        }
    }
    return blocks;
}

Eigen::MatrixXd NullSpace::projector() const {
    Eigen::MatrixXd z = Eigen::MatrixXd::Zero(m_rows, m_rows);
    if (m_nullity == 0) return z;
    const int n = keptRows();
    Eigen::MatrixXd kept = Eigen::MatrixXd::Identity(n, n);
    const Factor& f = *m_factor;
    if (f.cholesky) {
        const Eigen::MatrixXd hx = Eigen::MatrixXd(f.ht.transpose());
        kept -= f.ht * f.hht.solve(hx);
    } else {
        for (int j = 0; j < n; ++j) {
            Eigen::VectorXd c = kept.col(j);
            projectKept(c);
            kept.col(j) = c;
        }
    }
    for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j)
            z(m_kept[static_cast<size_t>(i)], m_kept[static_cast<size_t>(j)]) = kept(i, j);
    return z;
}

}  // namespace ndem
