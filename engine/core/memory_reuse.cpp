#include "core/memory_reuse.hpp"

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace ndem {

void keepFreedMemoryForReuse() {
#if defined(__GLIBC__)
    mallopt(M_TOP_PAD, 64 << 20);
#endif
}

}  // namespace ndem
