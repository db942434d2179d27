// Lock-free hand-off of the newest snapshot from the sim thread to the GUI thread.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>

namespace ndem::app {

/// Three preallocated slots shared by exactly one writer thread and one reader thread.
/// The writer owns the back slot, the reader owns the front slot, and the third ("middle")
/// slot is whichever one was handed over last. publish() and refresh() each swap their own slot
/// with the middle one in a single atomic exchange, so neither side ever waits for the other
/// and the reader always lands on the newest complete slot; slots published in between are
/// simply overwritten. Rejected: a mutex-guarded double buffer — the GUI would block for the
/// whole copy whenever it collides with a publish, and the sim thread whenever the GUI reads.
///
/// Slot contents are never copied: a T with buffers (vectors) keeps their capacity, so once
/// the sizes are stable there is no allocation on either side.
template <class T>
class TripleBuffer {
  public:
    TripleBuffer() = default;
    TripleBuffer(const TripleBuffer&) = delete;
    TripleBuffer& operator=(const TripleBuffer&) = delete;

    /// Writer: the slot to fill. It stays the writer's until publish().
    T& back() { return m_slots[m_back]; }

    /// Writer: hands the filled back slot to the reader and takes the middle one to fill next.
    /// acq_rel: release makes the writes into the slot visible to the reader that acquires it;
    /// acquire makes the reader's last reads of the slot we get back happen before we overwrite.
    void publish() {
        m_back = m_middle.exchange(static_cast<std::uint8_t>(m_back | kFresh),
                                   std::memory_order_acq_rel) &
                 kIndexMask;
    }

    /// Reader: takes the newest published slot if one arrived since the last refresh; returns
    /// whether front() changed. The relaxed peek only avoids a needless exchange: the fresh bit
    /// is set only by the writer and cleared only here, so once seen it stays set until the
    /// exchange below, which synchronises with the publish that set it.
    bool refresh() {
        if (!(m_middle.load(std::memory_order_relaxed) & kFresh)) return false;
        m_front = m_middle.exchange(m_front, std::memory_order_acq_rel) & kIndexMask;
        return true;
    }

    /// Reader: the slot taken by the last refresh (a default T before the first one). Stable
    /// until the next refresh.
    const T& front() const { return m_slots[m_front]; }

  private:
    static constexpr std::uint8_t kIndexMask = 0x3;
    static constexpr std::uint8_t kFresh = 0x4;  ///< middle holds a slot the reader has not seen

    std::array<T, 3> m_slots{};
    std::uint8_t m_back = 0;   ///< writer's slot; only the writer touches it
    std::uint8_t m_front = 2;  ///< reader's slot; only the reader touches it
    // Own cache line: both threads exchange it on every hand-off, and the writer filling the
    // last bytes of a slot should not invalidate the reader's copy of it.
    alignas(64) std::atomic<std::uint8_t> m_middle{1};
};

}  // namespace ndem::app
