#pragma once
/// \file
/// Makes the pieces of the PiecedTensors of a StreamedTensors on a thread of its own, in name
/// order, at most a few pieces ahead of the writer that takes them (next()), so that making a
/// piece runs beside writing the one before and only those few pieces are in memory.

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <exception>
#include <mutex>
#include <string>
#include <thread>

#include "mhaviz/core/io/streamed_tensors.hpp"

namespace mhaviz::io {

/// Throws what `error` holds; an InvalidInput with `file` before its message (the writers' errors
/// name the file).
[[noreturn]] void rethrow_naming(const std::exception_ptr& error, const std::string& file);

class PieceProducer {
 public:
  /// Starts the thread (none when `tensors` holds no PiecedTensor). `tensors` must outlive
  /// the producer. `ahead` is how many made pieces may wait for next() (at least 1).
  explicit PieceProducer(const StreamedTensors& tensors, std::size_t ahead = 3);
  /// Stops making pieces (one being made is finished first) and ends the thread.
  ~PieceProducer();
  PieceProducer(const PieceProducer&) = delete;
  PieceProducer& operator=(const PieceProducer&) = delete;

  /// The next piece, which must belong to the tensor `name` (the PiecedTensors are taken in
  /// name order, each piece once), waiting for it. Throws what making it threw, or
  /// InvalidInput naming the tensor when its pieces are of the wrong type or do not add up to
  /// its size.
  Tensor next(const std::string& name);

  /// Stops making pieces and ends the thread (what the destructor does).
  void stop();

 private:
  struct Piece {
    const std::string* name;
    Tensor bytes;
  };
  void run(const StreamedTensors& tensors);

  std::size_t ahead_;
  std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<Piece> ready_;
  std::exception_ptr error_;  // what making a piece threw; after the pieces made before it
  bool stopping_ = false;
  bool done_ = false;  // every piece made (or an error)
  std::thread thread_;
};

}  // namespace mhaviz::io
