#include "dem/smooth_pairs.hpp"

#include "core/parallel.hpp"
#include "dem/smooth_batch.hpp"
#include "dem/smooth_contact.hpp"
#include "dem/smooth_dem.hpp"

#include <algorithm>
#include <bit>
#include <cmath>

namespace ndem {

namespace {
constexpr std::uint64_t kNoKey = ~std::uint64_t{0};

std::uint64_t slotOf(std::uint64_t key, std::uint64_t mask) {
    // Fibonacci hashing: the product's top bits depend on every bit of the key (a wall
    // contact's key differs from the next one's only in the grain id, its upper half).
    return (key * 0x9E3779B97F4A7C15ull) >> (64 - std::popcount(mask)) & mask;
}
}  // namespace

void SmoothPairs::Carry::build(const std::vector<std::pair<std::uint64_t, Springs>>& items) {
    const size_t size = std::bit_ceil(std::max<size_t>(16, 2 * items.size()));
    m_keys.assign(size, kNoKey);
    m_springs.resize(size);
    m_mask = size - 1;
    for (const auto& [key, springs] : items) {
        std::uint64_t s = slotOf(key, m_mask);
        while (m_keys[s] != kNoKey && m_keys[s] != key)
            s = (s + 1) & m_mask;
        m_keys[s] = key;
        m_springs[s] = springs;
    }
}

const SmoothPairs::Springs* SmoothPairs::Carry::find(std::uint64_t key) const {
    if (m_keys.empty()) return nullptr;
    for (std::uint64_t s = slotOf(key, m_mask);; s = (s + 1) & m_mask) {
        if (m_keys[s] == key) return &m_springs[s];
        if (m_keys[s] == kNoKey) return nullptr;
    }
}

void SmoothPairs::keepListSprings(const NeighbourList& lists, bool escapedOnly) {
    if (!m_passed || m_build != lists.builds()) return;
    const size_t built = std::min(lists.builtCount(), m_wasEscaped.size());
    for (size_t i = 0; i < built; ++i) {
        if (m_wasEscaped[i]) continue;
        const std::int32_t base = lists.firstEntry(i);
        const std::span<const std::int32_t> listed = lists.of(i);
        for (size_t k = 0; k < listed.size(); ++k) {
            const size_t j = static_cast<size_t>(listed[k]);
            if (!m_touched[base + k] || j >= m_wasEscaped.size() || m_wasEscaped[j]) continue;
            if (escapedOnly && !lists.escaped(i) && !lists.escaped(j)) continue;
            // Keyed by the grains the entry was for: an escaped slot may hold another by now.
            const std::uint32_t a = lists.builtId(i), b = lists.builtId(j);
            m_carried.emplace_back(particlePairKey(std::min(a, b), std::max(a, b)),
                                   m_entrySprings[base + k]);
            m_touched[base + k] = 0;
        }
    }
}

void SmoothPairs::PairRecords::reserve(size_t more) {
    const size_t need = count + more;
    if (ids.size() >= need) return;
    const size_t size = std::max(need, 2 * ids.size());
    ids.resize(size);
    for (std::vector<double>& c : columns)
        c.resize(size);
}

namespace {
/// The batch's columns in the order of SmoothPairs::PairRecords::Column, then the pushes.
using BatchColumn = SmoothBatch::Column SmoothBatch::*;
constexpr BatchColumn kBatchColumns[] = {
    &SmoothBatch::nx,          &SmoothBatch::ny,  &SmoothBatch::nz,  &SmoothBatch::overlap,
    &SmoothBatch::normalForce, &SmoothBatch::ftx, &SmoothBatch::fty, &SmoothBatch::ftz,
    &SmoothBatch::mx,          &SmoothBatch::my,  &SmoothBatch::mz,  &SmoothBatch::fx,
    &SmoothBatch::fy,          &SmoothBatch::fz,  &SmoothBatch::tax, &SmoothBatch::tay,
    &SmoothBatch::taz,         &SmoothBatch::tbx, &SmoothBatch::tby, &SmoothBatch::tbz};

/// The grains as the batch kernel reads them: Collider::Grain records, velocities and spins.
SmoothBatch::Grains grainsOf(const std::vector<Collider::Grain>& g, const ParticleStore& p) {
    static_assert(sizeof(Collider::Grain) % sizeof(double) == 0);
    static_assert(sizeof(Vec3) == 3 * sizeof(double));
    if (g.empty()) return {};
    return {g[0].position.data(), &g[0].radius,
            static_cast<int>(sizeof(Collider::Grain) / sizeof(double)), p.velocity[0].data(),
            p.angularVelocity[0].data()};
}

/// Whether two grains touch (and either can move).
inline bool touches(const Collider::Grain& gi, const Collider::Grain& gj) {
    const double dist2 = (gj.position - gi.position).squaredNorm();
    const double touch = (gi.radius + gj.radius) * (1.0 + kTouchTolerance);
    // Without branches (&, not &&): about every other listed pair touches.
    return (gi.free | gj.free) & (dist2 < touch * touch) & (dist2 > 0.0);
}
}  // namespace

/// One thread's part of a pass, as SmoothPairs::pairPass runs it: the state its loops share,
/// and its steps. Touching pairs are staged into a batch; a full batch goes through the force
/// kernel and then, in staging order, onto the grains and back into the springs.
struct SmoothPairs::PairPass {
    // Everything the loops read through a pointer is held here first, not reached through
    // the SmoothPairs or the vectors: the flags they store are bytes, which may alias
    // anything, and would make the compiler load it again.
    const NeighbourList& lists;
    const Collider::Grain* const g;
    Vec3* const forceOn;
    Vec3* const torqueOn;
    const std::uint8_t* const escapedNow;
    const std::uint8_t* const escapedThen;
    const size_t slots;
    const bool sameLists;
    Springs* const entrySprings;
    std::uint8_t* const touched;
    const double h;
    const SmoothBatchKernel kernel;
    const bool direct;
    const bool passed;
    const Carry& carry;
    const ContactHistory& history;
    const MaterialTable& materials;
    const StepSettings& s;
    ThreadPart& out;
    SmoothBatch& batch;
    PairRecords& records;
    PairRecords::Ids* ids = nullptr;  ///< the staged pairs' records, after the `count` held
    int count = 0;                    ///< pairs staged in the batch
    Totals totals;  // not in `out`: every force stored would make the compiler reload it

    PairPass(SmoothPairs& pairs, const Collider& collider, const MaterialTable& materials,
             const StepSettings& s, const ContactHistory& history, ThreadPart& out,
             std::vector<Vec3>& force, std::vector<Vec3>& torque)
        : lists(collider.neighbours()),
          g(collider.grains().data()),
          forceOn(force.data()),
          torqueOn(torque.data()),
          escapedNow(lists.escapedFlags()),
          escapedThen(pairs.m_wasEscaped.data()),
          slots(pairs.m_wasEscaped.size()),
          sameLists(pairs.m_passed && pairs.m_build == lists.builds()),
          entrySprings(pairs.m_entrySprings.data()),
          touched(pairs.m_touched.data()),
          h(s.timeStep),
          kernel(smoothBatchKernel(s.simd)),
          direct(out.direct),
          passed(pairs.m_passed),
          carry(pairs.m_carry),
          history(history),
          materials(materials),
          s(s),
          out(out),
          batch(*out.batch),
          records(out.records) {}

    void prepareBatch(const Collider& collider, const ParticleStore& p) {
        batch.grains = grainsOf(collider.grains(), p);
        // One material (the common case): its pair's constants once, not five columns per pair.
        batch.uniform = materials.materials().size() == 1;
        if (batch.uniform) {
            const ContactMaterial& m = materials.pair(0, 0);
            const double constants[5] = {m.elasticModulus, m.shearModulus, m.friction,
                                         m.rollingResistance, m.damping};
            std::copy(constants, constants + 5, batch.material);
        }
        records.reserve(SmoothBatch::kCapacity);
        ids = records.ids.data() + records.count;
        count = 0;
    }

    // Springs of a pair whose entry did not hold them in the last pass: by key, from the
    // carry, or from the history before the first pass.
    Springs findSpringsByKey(std::uint64_t key, bool& found) const {
        if (!passed) {
            const std::int32_t r = history.find(key);
            found = r >= 0;
            return found ? Springs{history[r].tangentialSpring, history[r].rollingSpring}
                         : Springs{};
        }
        const Springs* c = carry.find(key);
        found = c != nullptr;
        return found ? *c : Springs{};
    }

    void flushBatch() {
        if (count == 0) return;
        if (s.contactLaw == ContactLaw::Hertz)
            kernel.pairs(batch, count, h);
        else
            lawOneByOne(batch, count, s);
        const int columns = direct ? PairRecords::kRecorded : PairRecords::kColumns;
        for (int c = 0; c < columns; ++c)
            std::copy_n(batch.*kBatchColumns[c], count, records.columns[c].data() + records.count);
        for (int k = 0; k < count; ++k) {
            const PairRecords::Ids& id = ids[k];
            Springs& springs =
                id.springs >= 0 ? entrySprings[id.springs] : out.loose[-1 - id.springs].second;
            springs.tangential = Vec3(batch.xix[k], batch.xiy[k], batch.xiz[k]);
            springs.rolling = Vec3(batch.thx[k], batch.thy[k], batch.thz[k]);
            if (!direct) continue;
            const Vec3 f(batch.fx[k], batch.fy[k], batch.fz[k]);
            forceOn[id.a] -= f;
            torqueOn[id.a] -= Vec3(batch.tax[k], batch.tay[k], batch.taz[k]);
            forceOn[id.b] += f;
            torqueOn[id.b] += Vec3(batch.tbx[k], batch.tby[k], batch.tbz[k]);
            const double e = batch.strain[k];
            totals.contacts += 1;
            totals.overlapSum += e;
            totals.maxOverlap = std::max(totals.maxOverlap, e);
        }
        records.count += static_cast<size_t>(count);
        records.reserve(SmoothBatch::kCapacity);
        ids = records.ids.data() + records.count;
        count = 0;
    }

    // Stages the touching pair of i and j (entry: its place in the lists, or −1).
    __attribute__((always_inline)) void stagePair(size_t i, size_t j, std::int32_t entry) {
        const Collider::Grain& gi = g[i];
        const Collider::Grain& gj = g[j];
        // Body A is the grain with the smaller id, as in the detection's contacts.
        // Selected with a mask, not a branch: the ids of neighbours in storage order are in
        // either order about equally often.
        const size_t swap = -static_cast<size_t>(gj.id < gi.id);
        const size_t a = i ^ ((i ^ j) & swap), b = i ^ j ^ a;
        bool found = false;
        Springs springs;
        std::int32_t springsAt = entry;
        // The entry held the pair's springs in the last pass if neither grain had escaped.
        if (entry >= 0 && sameLists && i < slots && j < slots && !escapedThen[i] &&
            !escapedThen[j]) {
            found = touched[entry] != 0;
            if (found) springs = entrySprings[entry];
        } else {
            const std::uint64_t key = particlePairKey(g[a].id, g[b].id);
            springs = findSpringsByKey(key, found);
            if (entry < 0) {
                springsAt = -1 - static_cast<std::int32_t>(out.loose.size());
                out.loose.emplace_back(key, Springs{});
            }
        }
        const int k = count++;
        ids[k] = {static_cast<Index>(a), static_cast<Index>(b), springsAt,
                  static_cast<std::uint8_t>(kTouching | (found ? kWasTouching : 0))};
        batch.indexA[k] = static_cast<int>(a);
        batch.indexB[k] = static_cast<int>(b);
        if (!batch.uniform) {
            const ContactMaterial& m = materials.pair(g[a].material, g[b].material);
            batch.elastic[k] = m.elasticModulus;
            batch.shear[k] = m.shearModulus;
            batch.friction[k] = m.friction;
            batch.rolling[k] = m.rollingResistance;
            batch.damping[k] = m.damping;
        }
        batch.xix[k] = springs.tangential.x();
        batch.xiy[k] = springs.tangential.y();
        batch.xiz[k] = springs.tangential.z();
        batch.thx[k] = springs.rolling.x();
        batch.thy[k] = springs.rolling.y();
        batch.thz[k] = springs.rolling.z();
        if (entry >= 0) touched[entry] = 1;
        if (count == SmoothBatch::kCapacity) flushBatch();
    }
    // The general path (escaped grains) is rare: one copy of the staging, called.
    __attribute__((noinline)) void stagePairCalled(size_t i, size_t j, std::int32_t entry) {
        stagePair(i, j, entry);
    }
    void stageIfTouching(size_t i, size_t j, std::int32_t entry) {
        if (touches(g[i], g[j]))
            stagePairCalled(i, j, entry);
        else if (entry >= 0)
            touched[entry] = 0;
    }

    /// Grain i's listed partners, where neither it nor any partner is off the lists.
    __attribute__((always_inline)) void stageListedPartners(int i,
                                                            std::span<const std::int32_t> listed,
                                                            std::int32_t base) {
        // Every partner tested first, without a branch, then the touching ones staged:
        // the partners' loads overlap instead of waiting behind a mispredicted test.
        if (out.hits.size() < listed.size()) out.hits.resize(2 * listed.size());
        std::int32_t* const hits = out.hits.data();
        const std::int32_t* const partner = listed.data();
        std::uint8_t* const flags = touched + base;
        const size_t listedCount = listed.size();
        const Collider::Grain& gi = g[i];
        size_t found = 0;
        for (size_t x = 0; x < listedCount; ++x) {
            const size_t j = static_cast<size_t>(partner[x]);
            const bool t = (escapedNow[j] == 0) & touches(gi, g[j]);
            // A touching entry keeps last pass's flag until staging reads it.
            flags[x] &= static_cast<std::uint8_t>(t);
            hits[found] = static_cast<std::int32_t>(x);
            found += t;
        }
        for (size_t k = 0; k < found; ++k)
            stagePair(i, static_cast<size_t>(partner[hits[k]]), base + hits[k]);
    }

    /// Grain i's listed and escaped partners merged in ascending order: the same pairs in the
    /// same order whenever the lists were searched.
    __attribute__((always_inline)) void stageMergedPartners(int i, bool iOut,
                                                            std::span<const std::int32_t> listed,
                                                            std::span<const std::int32_t> extra,
                                                            std::int32_t base) {
        size_t x = 0, y = 0;
        while (x < listed.size() || y < extra.size()) {
            if (y == extra.size() || (x < listed.size() && listed[x] < extra[y])) {
                const std::int32_t entry = base + static_cast<std::int32_t>(x);
                const size_t j = static_cast<size_t>(listed[x++]);
                if (iOut || escapedNow[j])
                    touched[entry] = 0;
                else
                    stageIfTouching(i, j, entry);
            } else {
                // Off the lists (a grain escaped): the entry of the same slots, if any, is out.
                if (x < listed.size() && listed[x] == extra[y]) touched[base + x++] = 0;
                stageIfTouching(i, static_cast<size_t>(extra[y++]), -1);
            }
        }
    }
};

void SmoothPairs::pairPass(const Collider& collider, const ParticleStore& p,
                           const MaterialTable& materials, const StepSettings& s,
                           const ContactHistory& history, int begin, int end, ThreadPart& out,
                           std::vector<Vec3>& force, std::vector<Vec3>& torque) {
    static_assert(std::size(kBatchColumns) == PairRecords::kColumns);
    PairPass pass(*this, collider, materials, s, history, out, force, torque);
    pass.prepareBatch(collider, p);
    const NeighbourList& lists = pass.lists;
    for (int i = begin; i < end; ++i) {
        const bool iOut = pass.escapedNow[i] != 0;
        const std::span<const std::int32_t> listed = lists.of(i);
        const std::span<const std::int32_t> extra = lists.escapedOf(i);
        const std::int32_t base = lists.firstEntry(i);
        if (!iOut && extra.empty())
            pass.stageListedPartners(i, listed, base);
        else
            pass.stageMergedPartners(i, iOut, listed, extra, base);
    }
    pass.flushBatch();
    out.totals = pass.totals;
}

void SmoothPairs::wallForces(const ParticleStore& p, const MaterialTable& materials,
                             const StepSettings& s, std::vector<Vec3>& force,
                             std::vector<Vec3>& torque) {
    // On the calling thread, in contact order, after the pairs: the sums are the same for any
    // thread count.
    const SmoothBatchKernel kernel = smoothBatchKernel(s.simd);
    const double h = s.timeStep;
    SmoothBatch& b = *m_parts[0].batch;
    b.uniform = false;
    ContactSet& c = m_walls;
    const int total = static_cast<int>(c.size());
    for (int first = 0; first < total; first += SmoothBatch::kCapacity) {
        const int count = std::min(SmoothBatch::kCapacity, total - first);
        for (int k = 0; k < count; ++k) {
            const size_t i = static_cast<size_t>(first + k);
            const Index a = c.bodyA[i];
            b.nx[k] = c.normal[i].x(), b.ny[k] = c.normal[i].y(), b.nz[k] = c.normal[i].z();
            b.overlap[k] = c.overlap[i];
            b.dx[k] = c.leverA[i].x(), b.dy[k] = c.leverA[i].y(), b.dz[k] = c.leverA[i].z();
            b.radiusA[k] = 0.5 * c.effectiveDiameter[i];
            const Vec3 dv = c.wallVelocity[i] - p.velocity[a];
            b.dvx[k] = dv.x(), b.dvy[k] = dv.y(), b.dvz[k] = dv.z();
            const Vec3& wa = p.angularVelocity[a];
            const Vec3& wb = c.wallAngularVelocity[i];
            b.wax[k] = wa.x(), b.way[k] = wa.y(), b.waz[k] = wa.z();
            b.wbx[k] = wb.x(), b.wby[k] = wb.y(), b.wbz[k] = wb.z();
            const ContactMaterial& m = materials.pair(c.materialA[i], c.materialB[i]);
            b.elastic[k] = m.elasticModulus;
            b.shear[k] = m.shearModulus;
            b.friction[k] = m.friction;
            b.rolling[k] = m.rollingResistance;
            b.damping[k] = m.damping;
            const Vec3& xi = c.tangentialSpring[i];
            const Vec3& theta = c.rollingSpring[i];
            b.xix[k] = xi.x(), b.xiy[k] = xi.y(), b.xiz[k] = xi.z();
            b.thx[k] = theta.x(), b.thy[k] = theta.y(), b.thz[k] = theta.z();
        }
        kernel.walls(b, count, h);
        for (int k = 0; k < count; ++k) {
            const size_t i = static_cast<size_t>(first + k);
            const Index a = c.bodyA[i];
            c.normalImpulse[i] = b.normalForce[k] * h;
            c.frictionImpulse[i] = h * Vec3(b.ftx[k], b.fty[k], b.ftz[k]);
            c.rollingImpulse[i] = h * Vec3(b.mx[k], b.my[k], b.mz[k]);
            c.tangentialSpring[i] = Vec3(b.xix[k], b.xiy[k], b.xiz[k]);
            c.rollingSpring[i] = Vec3(b.thx[k], b.thy[k], b.thz[k]);
            force[a] -= Vec3(b.fx[k], b.fy[k], b.fz[k]);
            torque[a] -= Vec3(b.tax[k], b.tay[k], b.taz[k]);
        }
    }
}

void SmoothPairs::lawOneByOne(SmoothBatch& b, int count, const StepSettings& s) {
    // The laws other than Hertz, through the per-contact function.
    const SmoothBatch::Grains& g = b.grains;
    auto vec = [](const double* at) { return Vec3(at[0], at[1], at[2]); };
    for (int k = 0; k < count; ++k) {
        const int ia = b.indexA[k], ib = b.indexB[k];
        const Vec3 d = vec(g.position + ib * g.stride) - vec(g.position + ia * g.stride);
        const double dist = d.norm();
        const Vec3 n = d / dist;
        const double ra = g.radius[ia * g.stride], rb = g.radius[ib * g.stride];
        const double delta = ra + rb - dist;
        const Vec3 leverA = (ra - 0.5 * delta) * n, leverB = -(rb - 0.5 * delta) * n;
        const Vec3 wa = vec(g.spin + 3 * ia), wb = vec(g.spin + 3 * ib);
        const Vec3 u = (vec(g.velocity + 3 * ib) - vec(g.velocity + 3 * ia)) + wb.cross(leverB) -
                       wa.cross(leverA);
        Vec3 xi(b.xix[k], b.xiy[k], b.xiz[k]), theta(b.thx[k], b.thy[k], b.thz[k]);
        ContactMaterial m;
        m.elasticModulus = b.uniform ? b.material[0] : b.elastic[k];
        m.shearModulus = b.uniform ? b.material[1] : b.shear[k];
        m.friction = b.uniform ? b.material[2] : b.friction[k];
        m.rollingResistance = b.uniform ? b.material[3] : b.rolling[k];
        m.damping = b.uniform ? b.material[4] : b.damping[k];
        SmoothPush push;
        if (delta > 0.0) {
            const double da = 2.0 * ra, db = 2.0 * rb;
            push = smoothContactForce(m, s.contactLaw, s.referenceOverlap, da * db / (da + db),
                                      0.5 * (da + db), n, delta, u, wb - wa, s.timeStep, xi, theta);
        } else {
            push.tangentialForce.setZero();
            push.moment.setZero();
            xi.setZero();
            theta.setZero();
        }
        const Vec3 f = push.normalForce * n + push.tangentialForce;
        const Vec3 ta = leverA.cross(f) + push.moment, tb = leverB.cross(f) + push.moment;
        b.nx[k] = n.x(), b.ny[k] = n.y(), b.nz[k] = n.z();
        b.overlap[k] = delta;
        b.strain[k] = delta / (ra + rb);
        b.normalForce[k] = push.normalForce;
        b.ftx[k] = push.tangentialForce.x(), b.fty[k] = push.tangentialForce.y(),
        b.ftz[k] = push.tangentialForce.z();
        b.mx[k] = push.moment.x(), b.my[k] = push.moment.y(), b.mz[k] = push.moment.z();
        b.fx[k] = f.x(), b.fy[k] = f.y(), b.fz[k] = f.z();
        b.tax[k] = ta.x(), b.tay[k] = ta.y(), b.taz[k] = ta.z();
        b.tbx[k] = tb.x(), b.tby[k] = tb.y(), b.tbz[k] = tb.z();
        b.xix[k] = xi.x(), b.xiy[k] = xi.y(), b.xiz[k] = xi.z();
        b.thx[k] = theta.x(), b.thy[k] = theta.y(), b.thz[k] = theta.z();
    }
}

void SmoothPairs::detect(Collider& collider, const ParticleStore& p, const std::vector<Wall>& walls,
                         const std::vector<TriangleMesh>& meshes, const CollisionParams& params,
                         ContactLaw law, const ContactHistory& history) {
    const NeighbourList& lists =
        collider.updateLists(p, params, [&] { keepListSprings(collider.neighbours(), false); });
    // Grains that escaped since the last pass leave their pairs' springs to be found by key.
    bool newlyEscaped = false;
    for (std::int32_t e : lists.escapedGrains())
        newlyEscaped |= static_cast<size_t>(e) >= m_wasEscaped.size() || !m_wasEscaped[e];
    if (newlyEscaped || lists.builtCount() > p.size()) keepListSprings(lists, true);
    if (m_passed) m_carry.build(m_carried);
    m_carried.clear();
    if (m_build != lists.builds() || m_touched.size() != lists.entries()) {
        m_entrySprings.resize(lists.entries());
        m_touched.assign(lists.entries(), 0);
    }
    CollisionParams wallParams = params;
    wallParams.touchingOnly = true;
    m_walls.clear();
    collider.detectWalls(p, walls, meshes, wallParams, m_walls);
    ContactSet& c = m_walls;
    if (law != ContactLaw::Hertz) {
        (m_passed ? m_wallHistory : history).match(c, params.threads);
        return;
    }
    // Last step's springs into the contacts, by key: a few thousand wall contacts need no
    // history ordered by every grain's id.
    c.tangentialSpring.assign(c.size(), Vec3::Zero());
    c.rollingSpring.assign(c.size(), Vec3::Zero());
    if (!m_passed) {
        history.match(c, params.threads);
        for (size_t i = 0; i < c.size(); ++i)
            if (c.memory[i] >= 0) {
                c.tangentialSpring[i] = history[c.memory[i]].tangentialSpring;
                c.rollingSpring[i] = history[c.memory[i]].rollingSpring;
            }
        return;
    }
    for (size_t i = 0; i < c.size(); ++i)
        if (const Springs* last = m_wallCarry.find(c.key[i])) {
            // Every wall contact the pass keeps touched (a touching-only detection).
            c.flags[i] |= kWasTouching;
            c.tangentialSpring[i] = last->tangential;
            c.rollingSpring[i] = last->rolling;
        }
}

SmoothPairs::Totals SmoothPairs::forces(const Collider& collider, const ParticleStore& p,
                                        const MaterialTable& materials, const StepSettings& s,
                                        const ContactHistory& history, int threads,
                                        std::vector<Vec3>& force, std::vector<Vec3>& torque) {
    const NeighbourList& lists = collider.neighbours();
    const int n = static_cast<int>(p.size());
    const int team = parallel::threadsFor(n, 1024, threads);
    m_parts.resize(std::max<size_t>(m_parts.size(), team));
    for (ThreadPart& part : m_parts) {
        if (!part.batch) {
            part.batch = std::make_unique<SmoothBatch>();
        }
        part.records.count = 0;
        part.loose.clear();
        part.direct = team <= 1;
        part.totals = Totals{};
    }
    parallel::team(team, [&] {
        const int t = parallel::threadIndex();
        const auto [begin, end] = parallel::share(0, n, t, parallel::teamSize());
        pairPass(collider, p, materials, s, history, begin, end, m_parts[t], force, torque);
    });
    // The pushes in pass order on one thread: the sums do not depend on the thread count.
    Totals totals;
    for (int t = 0; t < team; ++t) {
        const ThreadPart& part = m_parts[t];
        if (part.direct) {
            totals = part.totals;
            continue;
        }
        const PairRecords& r = part.records;
        using C = PairRecords::Column;
        const double* const overlap = r.column(C::Overlap);
        const double* push[9];
        for (int c = 0; c < 9; ++c)
            push[c] = r.column(PairRecords::kRecorded + c);
        for (size_t k = 0; k < r.count; ++k) {
            const PairRecords::Ids& id = r.ids[k];
            const Vec3 f(push[0][k], push[1][k], push[2][k]);
            force[id.a] -= f;
            torque[id.a] -= Vec3(push[3][k], push[4][k], push[5][k]);
            force[id.b] += f;
            torque[id.b] += Vec3(push[6][k], push[7][k], push[8][k]);
            const double e = overlap[k] / (p.radius[id.a] + p.radius[id.b]);
            totals.contacts += 1;
            totals.overlapSum += e;
            totals.maxOverlap = std::max(totals.maxOverlap, e);
        }
    }

    if (s.contactLaw == ContactLaw::Hertz)
        wallForces(p, materials, s, force, torque);
    else
        computeSmoothForces(p, m_walls, m_passed ? m_wallHistory : history, materials, s, force,
                            torque, threads);
    for (size_t c = 0; c < m_walls.size(); ++c) {
        const double e = m_walls.overlap[c] / m_walls.diameter[c];
        totals.contacts += 1;
        totals.overlapSum += e;
        totals.maxOverlap = std::max(totals.maxOverlap, e);
    }
    if (s.contactLaw == ContactLaw::Hertz) {
        m_wallItems.clear();
        for (size_t c = 0; c < m_walls.size(); ++c)
            m_wallItems.emplace_back(
                m_walls.key[c], Springs{m_walls.tangentialSpring[c], m_walls.rollingSpring[c]});
        m_wallCarry.build(m_wallItems);
    } else {
        m_wallHistory.store(m_walls, p.nextId(), threads);
    }

    for (int t = 0; t < team; ++t)
        for (const auto& [key, springs] : m_parts[t].loose)
            if (!springs.tangential.isZero() || !springs.rolling.isZero())
                m_carried.emplace_back(key, springs);
    m_wasEscaped.resize(p.size());
    for (size_t i = 0; i < p.size(); ++i)
        m_wasEscaped[i] = lists.escaped(i) ? 1 : 0;
    m_build = lists.builds();
    m_passed = true;
    m_timeStep = s.timeStep;
    return totals;
}

void SmoothPairs::writeContacts(const ParticleStore& p, ContactSet& out) const {
    size_t pairs = 0;
    for (const ThreadPart& part : m_parts)
        pairs += part.records.count;
    const size_t first = out.size();
    out.resize(first + pairs);
    out.tangentialSpring.resize(out.size());
    out.rollingSpring.resize(out.size());
    const double h = m_timeStep;
    using C = PairRecords::Column;
    size_t c = first;
    for (const ThreadPart& part : m_parts) {
        const PairRecords& r = part.records;
        for (size_t k = 0; k < r.count; ++k) {
            const PairRecords::Ids& id = r.ids[k];
            if (static_cast<size_t>(std::max(id.a, id.b)) >= p.size()) continue;  // removed since
            const double ra = p.radius[id.a], rb = p.radius[id.b];
            const double da = 2.0 * ra, db = 2.0 * rb;
            const Vec3 normal(r.column(C::Nx)[k], r.column(C::Ny)[k], r.column(C::Nz)[k]);
            const double overlap = r.column(C::Overlap)[k];
            out.set(c, id.a, id.b, normal, (ra - 0.5 * overlap) * normal,
                    -(rb - 0.5 * overlap) * normal, overlap, 0.5 * (da + db), da * db / (da + db),
                    p.material[id.a], p.material[id.b], particlePairKey(p.id[id.a], p.id[id.b]),
                    id.flags);
            out.normalImpulse[c] = r.column(C::NormalForce)[k] * h;
            out.frictionImpulse[c] =
                h * Vec3(r.column(C::Ftx)[k], r.column(C::Fty)[k], r.column(C::Ftz)[k]);
            out.rollingImpulse[c] =
                h * Vec3(r.column(C::Mx)[k], r.column(C::My)[k], r.column(C::Mz)[k]);
            const Springs& springs =
                id.springs >= 0 ? m_entrySprings[id.springs] : part.loose[-1 - id.springs].second;
            out.tangentialSpring[c] = springs.tangential;
            out.rollingSpring[c] = springs.rolling;
            ++c;
        }
    }
    out.resize(c);
    out.tangentialSpring.resize(c);
    out.rollingSpring.resize(c);
    const ContactSet& w = m_walls;
    for (size_t k = 0; k < w.size(); ++k) {
        const size_t i = out.add(w.bodyA[k], w.bodyB[k], w.normal[k], w.leverA[k], w.leverB[k],
                                 w.overlap[k], w.diameter[k], w.effectiveDiameter[k],
                                 w.materialA[k], w.materialB[k], w.key[k], w.flags[k]);
        out.wallVelocity[i] = w.wallVelocity[k];
        out.wallAngularVelocity[i] = w.wallAngularVelocity[k];
        out.normalImpulse[i] = w.normalImpulse[k];
        out.frictionImpulse[i] = w.frictionImpulse[k];
        out.rollingImpulse[i] = w.rollingImpulse[k];
        out.tangentialSpring.push_back(w.hasSprings() ? w.tangentialSpring[k] : Vec3::Zero());
        out.rollingSpring.push_back(w.hasSprings() ? w.rollingSpring[k] : Vec3::Zero());
    }
}

}  // namespace ndem
