// What the three interior points (InteriorPointSolver, LcpInteriorPoint, StaticLcp) keep of
// their path: the iterate with the smallest residual so far, and whether they stall there.
// Near the answer round-off can stall the Newton steps or, in a degenerate packing, blow them
// up; for ν < μ the iteration stalls by itself (krabbenhoft-2012 Sec. 4.5). The answer is then
// the best point reached, and its residual says how far it is.
#pragma once

#include <limits>
#include <tuple>

namespace ndem {

/// The best of the iterates offered, as copies of the vectors (and numbers) that make one.
template <class... Parts>
class BestIterate {
  public:
    /// Starts at `start` (the answer if no iterate is ever offered), with no residual yet.
    explicit BestIterate(const Parts&... start) : m_point(start...) {}

    /// Keeps iterate `it` if its residual is the smallest so far; true when it did.
    bool offer(int it, double residual, const Parts&... parts) {
        if (!(residual < m_residual)) return false;
        m_residual = residual;
        m_iteration = it;
        m_point = std::tie(parts...);  // element by element: the vectors keep their storage
        return true;
    }
    /// Near the answer (within 10⁴ of the tolerance), `patience` steps without a better iterate
    /// are a stall. Farther away the residual may rise for a few steps (a tall column's first
    /// steps) before it falls.
    bool stalled(int it, double tolerance, int patience) const {
        return m_residual < 1e4 * tolerance && it - m_iteration >= patience;
    }
    double residual() const { return m_residual; }
    const std::tuple<Parts...>& point() const { return m_point; }

  private:
    std::tuple<Parts...> m_point;
    double m_residual = std::numeric_limits<double>::infinity();
    int m_iteration = 0;
};

}  // namespace ndem
