// The collective operations a row-distributed solver needs from whatever runs it on several
// processes (MPI ranks, or threads in a test), without mechanics knowing MPI: every process
// ("rank") holds the whole system, owns some rows, and exchanges blocks of doubles. Every rank
// must call each operation in the same order with the same sizes (collective semantics).
#pragma once

#include <algorithm>
#include <span>
#include <stdexcept>

#include "kinevo/io/errors.hpp"  // option_error

namespace kinevo::mechanics {

class row_collective {
 public:
  virtual ~row_collective() = default;
  virtual int rank() const = 0;  // 0 .. size() - 1
  virtual int size() const = 0;  // >= 1
  // Every rank's `data` becomes rank `root`'s (same size on every rank).
  virtual void broadcast(std::span<double> data, int root) = 0;
  // `all` becomes the concatenation, in rank order, of every rank's `local` (same local size on
  // every rank; all.size() == size() * local.size()).
  virtual void allgather(std::span<const double> local, std::span<double> all) = 0;
};

// One process: rank 0 of 1; a broadcast changes nothing and an allgather copies.
class serial_collective final : public row_collective {
 public:
  int rank() const override { return 0; }
  int size() const override { return 1; }
  void broadcast(std::span<double> /*data*/, int root) override {
    if (root != 0) throw io::option_error("root", "must be 0 (serial_collective broadcast)");
  }
  void allgather(std::span<const double> local, std::span<double> all) override {
    if (all.size() != local.size()) {
      throw io::option_error("all", "must have local's size (serial_collective allgather)");
    }
    std::copy(local.begin(), local.end(), all.begin());
  }
};

}  // namespace kinevo::mechanics
