// Anderson acceleration of a fixed point x = F(x) (walker-ni-2011, type II, as in their
// Algorithm AA): the next point mixes the last values of F so that their residuals F(x) − x
// cancel as far as a least-squares fit over the last `memory` differences allows. Memory 0 is
// the plain iteration x ← F(x). The interior point's Coulomb fixed point of cone programs uses
// it on the shifts of the normal velocities (acary-2011).
#pragma once

#include <Eigen/Dense>

#include <vector>

namespace ndem {

class AndersonMixing {
  public:
    explicit AndersonMixing(int memory) : m_memory(memory) {}

    /// The next point from x and F(x).
    Eigen::VectorXd next(const Eigen::VectorXd& x, const Eigen::VectorXd& fx) {
        const Eigen::VectorXd g = fx - x;
        if (m_memory <= 0) return fx;
        if (m_lastF.size() == fx.size()) {
            m_dF.push_back(fx - m_lastF);
            m_dG.push_back(g - m_lastG);
            if (static_cast<int>(m_dG.size()) > m_memory) {
                m_dF.erase(m_dF.begin());
                m_dG.erase(m_dG.begin());
            }
        }
        m_lastF = fx;
        m_lastG = g;
        if (m_dG.empty()) return fx;
        Eigen::MatrixXd dG(g.size(), static_cast<Eigen::Index>(m_dG.size()));
        for (size_t j = 0; j < m_dG.size(); ++j)
            dG.col(static_cast<Eigen::Index>(j)) = m_dG[j];
        // Pivoted QR: differences that have become parallel (a converged component) drop out.
        const Eigen::VectorXd gamma = dG.colPivHouseholderQr().solve(g);
        Eigen::VectorXd out = fx;
        for (size_t j = 0; j < m_dF.size(); ++j)
            out -= gamma[static_cast<Eigen::Index>(j)] * m_dF[j];
        return out;
    }

  private:
    int m_memory;
    std::vector<Eigen::VectorXd> m_dF, m_dG;  ///< differences of F and of the residuals
    Eigen::VectorXd m_lastF, m_lastG;
};

}  // namespace ndem
