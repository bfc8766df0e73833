#pragma once
// Test helper: a Parallel without threads that runs the pieces of each call last to first on
// the calling thread (worker = piece % concurrency) and records the most pieces it was given.

#include <cstddef>

#include "nnhal/interface/parallel.hpp"

namespace nnhal::test {

/// A Parallel without threads that runs the pieces last to first on the caller, and records them.
class Reversed final : public Parallel {
 public:
  explicit Reversed(std::size_t concurrency) : concurrency_(concurrency) {}
  std::size_t concurrency() const noexcept override { return concurrency_; }
  void run(std::size_t pieces, Task task, void* context) noexcept override {
    max_pieces = pieces > max_pieces ? pieces : max_pieces;
    for (std::size_t i = pieces; i-- > 0;) task(context, i, i % concurrency_);
  }
  std::size_t max_pieces = 0;

 private:
  std::size_t concurrency_;
};

}  // namespace nnhal::test
