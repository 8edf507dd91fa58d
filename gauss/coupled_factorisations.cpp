#include "kinevo/gauss/detail/coupled_factorisations.hpp"

#include <atomic>

namespace kinevo::gauss {

namespace {
std::atomic<long long> calls{0};
}  // namespace

void note_coupled_factorisation() {
  calls.fetch_add(1, std::memory_order_relaxed);
}

long long coupled_factorisations() {
  return calls.load(std::memory_order_relaxed);
}

}  // namespace kinevo::gauss
