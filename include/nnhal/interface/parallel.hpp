#pragma once
/// \file
/// How a kernel runs pieces of its work at once: the Parallel interface a driver implements over
/// its own thread pool (nnhal::ThreadPool in nnhal/exec/thread_pool.hpp is the library's), and
/// for_each_piece, which kernels call.
///
/// A kernel splits its output into contiguous ranges and computes each range exactly as it
/// would alone: no element's value depends on which range holds it, so the outputs are bit for
/// bit the same for any number of threads. A piece that needs scratch uses its worker's slice of
/// the node's workspace, sized at prepare from KernelPrepare::concurrency.
///
/// Without a Parallel (firmware, the default) everything runs on the calling thread.

#include <cstddef>
#include <type_traits>

namespace nnhal {

/// Runs the pieces of one kernel call. Implementations must not allocate, throw or block
/// forever; the object must outlive every prepared model that uses it.
class Parallel {
 public:
  /// One piece: `piece` says which, `worker` < concurrency() which thread runs it (no two
  /// pieces of one run() call running at the same time get the same worker: a scratch slice
  /// index).
  using Task = void (*)(void* context, std::size_t piece, std::size_t worker);

  /// How many pieces may run at once (at least 1). Fixed for the object's life: preparation
  /// sizes per-worker scratch from it.
  virtual std::size_t concurrency() const noexcept = 0;

  /// Calls task(context, i, worker) once for every i in [0, pieces), possibly on other threads
  /// and at the same time, and returns when all calls have returned. There may be more pieces
  /// than threads: threads take the next piece as they finish one, so a thread the system
  /// holds up delays only the piece it holds. May run them all on the calling thread (when its
  /// threads are busy with another caller, say). Called from several executions at once, it
  /// must stay correct.
  virtual void run(std::size_t pieces, Task task, void* context) noexcept = 0;

 protected:
  Parallel() = default;
  Parallel(const Parallel&) = default;
  Parallel& operator=(const Parallel&) = default;
  ~Parallel() = default;
};

/// Pieces per thread for_each_piece aims at: a few, so that a thread that is held up (another
/// process on its core) leaves the rest of the work to the others.
inline constexpr std::size_t kPiecesPerThread = 4;

/// Splits [0, n) into at most kPiecesPerThread * `parallel->concurrency()` contiguous ranges
/// whose sizes (except the last) are multiples of `grain`, no range smaller than `min_items`
/// unless it is the only one, and calls f(begin, end, worker) for each, worker <
/// concurrency() naming the thread (a scratch slice index). Runs f(0, n, 0) directly when there
/// is no Parallel or one range; nothing when n is 0.
template <class F>
void for_each_piece(Parallel* parallel, std::size_t n, std::size_t grain, std::size_t min_items, F&& f) {
  if (n == 0) return;
  if (grain == 0) grain = 1;
  const std::size_t threads = parallel == nullptr ? 1 : parallel->concurrency();
  std::size_t pieces = threads <= 1 ? 1 : threads * kPiecesPerThread;
  if (min_items != 0 && n / min_items < pieces) pieces = n / min_items;
  if (pieces <= 1 || n <= grain) {
    f(std::size_t{0}, n, std::size_t{0});
    return;
  }
  const std::size_t units = (n + grain - 1) / grain;
  if (units < pieces) pieces = units;
  struct Job {
    std::remove_reference_t<F>* f;
    std::size_t n, grain, units, pieces;
  } job{&f, n, grain, units, pieces};
  parallel->run(
      pieces,
      [](void* context, std::size_t piece, std::size_t worker) {
        const Job& j = *static_cast<const Job*>(context);
        // Units split as evenly as possible: the first (units % pieces) pieces get one more.
        const std::size_t base = j.units / j.pieces, extra = j.units % j.pieces;
        const std::size_t u0 = piece * base + (piece < extra ? piece : extra);
        const std::size_t u1 = u0 + base + (piece < extra ? 1 : 0);
        const std::size_t begin = u0 * j.grain, end = u1 * j.grain < j.n ? u1 * j.grain : j.n;
        if (begin < end) (*j.f)(begin, end, worker);
      },
      &job);
}

/// The number of scratch slices for_each_piece's workers may use under `concurrency`.
constexpr std::size_t piece_slots(std::size_t concurrency) noexcept { return concurrency == 0 ? 1 : concurrency; }

}  // namespace nnhal
