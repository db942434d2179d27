#include "sim/triple_buffer.hpp"

#include <gtest/gtest.h>

#include <array>
#include <atomic>
#include <cstdint>
#include <thread>

using ndem::app::TripleBuffer;

TEST(TripleBuffer, RefreshIsFalseBeforeAnyPublish) {
    TripleBuffer<int> buffer;
    EXPECT_FALSE(buffer.refresh());
    EXPECT_EQ(buffer.front(), 0);
}

TEST(TripleBuffer, NewestPublishWinsAndIsTakenOnce) {
    TripleBuffer<int> buffer;
    buffer.back() = 1;
    buffer.publish();
    buffer.back() = 2;
    buffer.publish();
    ASSERT_TRUE(buffer.refresh());
    EXPECT_EQ(buffer.front(), 2);
    EXPECT_FALSE(buffer.refresh());
    EXPECT_EQ(buffer.front(), 2);
}

TEST(TripleBuffer, FrontIsStableUntilTheNextRefresh) {
    TripleBuffer<int> buffer;
    buffer.back() = 1;
    buffer.publish();
    ASSERT_TRUE(buffer.refresh());
    for (int v = 2; v <= 5; ++v) {
        buffer.back() = v;
        buffer.publish();
        EXPECT_EQ(buffer.front(), 1);
    }
    ASSERT_TRUE(buffer.refresh());
    EXPECT_EQ(buffer.front(), 5);
}

TEST(TripleBuffer, WriterNeverOverwritesTheSlotTheReaderHolds) {
    TripleBuffer<int> buffer;
    buffer.back() = 7;
    buffer.publish();
    ASSERT_TRUE(buffer.refresh());
    const int* held = &buffer.front();
    for (int k = 0; k < 10; ++k) {
        EXPECT_NE(&buffer.back(), held);
        buffer.back() = 100 + k;
        buffer.publish();
    }
    EXPECT_EQ(*held, 7);
}

namespace {

/// A payload that is wrong unless all of it was written for the same sequence number.
struct Stamped {
    std::uint64_t sequence = 0;
    std::array<std::uint64_t, 64> payload{};
};

}  // namespace

// The writer fills each slot completely for one sequence number; a reader that ever sees a
// mixture (a torn slot), a sequence that is not newer than the last one it took, or misses
// the last publish, fails.
TEST(TripleBuffer, ConcurrentReaderSeesOnlyWholeSnapshotsInOrder) {
    constexpr std::uint64_t kPublishes = 200000;
    TripleBuffer<Stamped> buffer;
    std::atomic<bool> writerDone{false};

    std::thread writer([&] {
        for (std::uint64_t seq = 1; seq <= kPublishes; ++seq) {
            Stamped& slot = buffer.back();
            slot.sequence = seq;
            slot.payload.fill(seq);
            buffer.publish();
        }
        writerDone.store(true, std::memory_order_release);
    });

    std::uint64_t last = 0, refreshes = 0, torn = 0, backwards = 0;  // reader's only
    auto check = [&] {
        const Stamped& s = buffer.front();
        for (std::uint64_t v : s.payload)
            torn += (v != s.sequence);
        backwards += (s.sequence <= last);
        last = s.sequence;
    };
    while (!writerDone.load(std::memory_order_acquire)) {
        if (buffer.refresh()) {
            ++refreshes;
            check();
        }
    }
    writer.join();
    // Whatever the reader took last, the final publish is still waiting for it (or was taken).
    if (buffer.refresh()) check();

    EXPECT_EQ(torn, 0u);
    EXPECT_EQ(backwards, 0u);
    EXPECT_EQ(last, kPublishes);
    EXPECT_EQ(buffer.front().sequence, kPublishes);
    RecordProperty("refreshes", static_cast<int>(refreshes));
}
