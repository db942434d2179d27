// The table `ndem keys` prints: every setting key with unit, default, range and meaning, the
// registered solver methods, the measurements — all read from the engine's own lists
// (visitSettings, the solver registry, the measurement factories), so it cannot go stale.
#pragma once

#include <cstdio>

namespace ndem {

void printKeyTable(std::FILE* out);

}  // namespace ndem
