// The process's heap kept for reuse between the step's large, short-lived allocations.
#pragma once

namespace ndem {

/// Asks the C library to grow its heap by 64 MiB beyond each request and to keep that much
/// free at its top. UMFPACK (the dynamic complementarity problem's and the Alart–Curnier
/// Newton method's LU) allocates a factorisation's memory afresh every Newton step and frees it
/// after, and glibc handed the pages back and faulted them in again each time: a fifth of a
/// non-associated static step's time in the kernel when that step was UMFPACK's too
/// (docs/PERFORMANCE.md, "the heap kept").
/// The untouched pad is address space, not memory. Call once at the start of a program.
void keepFreedMemoryForReuse();

}  // namespace ndem
