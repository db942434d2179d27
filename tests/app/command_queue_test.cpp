#include "sim/command_queue.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <thread>
#include <vector>

using ndem::World;
using ndem::app::CommandQueue;

TEST(CommandQueue, DrainRunsCommandsInPushOrderOnce) {
    CommandQueue queue;
    World world;
    std::vector<int> order;
    for (int k = 0; k < 5; ++k)
        queue.push([&order, k](World&) { order.push_back(k); });
    EXPECT_FALSE(queue.empty());
    EXPECT_EQ(queue.drain(world), 5);
    EXPECT_EQ(order, (std::vector<int>{0, 1, 2, 3, 4}));
    EXPECT_TRUE(queue.empty());
    EXPECT_EQ(queue.drain(world), 0);
    EXPECT_EQ(order.size(), 5u);
}

TEST(CommandQueue, CommandsGetTheWorldTheyAreDrainedWith) {
    CommandQueue queue;
    World world;
    const World* seen = nullptr;
    queue.push([&seen](World& w) { seen = &w; });
    queue.drain(world);
    EXPECT_EQ(seen, &world);
}

TEST(CommandQueue, CommandPushedByACommandRunsAtTheNextDrain) {
    CommandQueue queue;
    World world;
    int ran = 0;
    queue.push([&](World&) {
        ++ran;
        queue.push([&](World&) { ran += 10; });
    });
    EXPECT_EQ(queue.drain(world), 1);
    EXPECT_EQ(ran, 1);
    EXPECT_EQ(queue.drain(world), 1);
    EXPECT_EQ(ran, 11);
}

// A GUI thread keeps pushing while the sim thread drains: every command runs exactly once, and
// the commands of one pusher run in the order it pushed them.
TEST(CommandQueue, CommandsPushedWhileDrainingAllRunExactlyOnce) {
    constexpr int kCommands = 20000;
    CommandQueue queue;
    World world;
    std::vector<int> runs(kCommands, 0);  // written by the drainer only
    int outOfOrder = 0, previous = -1;
    std::atomic<bool> pusherDone{false};

    std::thread pusher([&] {
        for (int k = 0; k < kCommands; ++k)
            queue.push([&, k](World&) {
                ++runs[k];
                outOfOrder += (k <= previous);
                previous = k;
            });
        pusherDone.store(true, std::memory_order_release);
    });

    int drained = 0;
    while (!pusherDone.load(std::memory_order_acquire))
        drained += queue.drain(world);
    pusher.join();
    drained += queue.drain(world);

    EXPECT_EQ(drained, kCommands);
    EXPECT_EQ(outOfOrder, 0);
    int wrong = 0;
    for (int r : runs)
        wrong += (r != 1);
    EXPECT_EQ(wrong, 0);
}
