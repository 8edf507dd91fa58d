// Memory an island model needs, estimated before anything is allocated, so that a population of
// 1e9 or a million islands is refused with a message naming the settings instead of ending in
// std::bad_alloc or the kernel's OOM killer (issue 16, item 11).
#pragma once

#include <cstdint>

#include "kinevo/ga/island_model.hpp"

namespace kinevo::ga {

// Bytes the islands of one process need for a problem of `dimension` variables: the
// populations, their scratch and bound arrays, the genomes, and the exchange buffers (which
// hold every island's packet). A lower bound within a few percent of what configure() allocates;
// per-generation history (run_settings::record_history) is not included.
std::uint64_t island_model_bytes(const ga_options& ga, const island_options& islands,
                                 int local_islands, int dimension);

// Physical memory of this machine in bytes (0 when unknown).
std::uint64_t physical_memory_bytes();

// Throws std::invalid_argument naming islands, population and dimension when the estimate
// exceeds `available` bytes (physical memory by default; nothing is checked when it is 0).
void require_memory(const ga_options& ga, const island_options& islands, int local_islands,
                    int dimension, std::uint64_t available = physical_memory_bytes());

}  // namespace kinevo::ga
