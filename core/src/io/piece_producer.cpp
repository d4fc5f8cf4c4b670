#include "piece_producer.hpp"

#include <algorithm>
#include <utility>
#include <variant>

#include "mhaviz/core/base/errors.hpp"

namespace mhaviz::io {

void rethrow_naming(const std::exception_ptr& error, const std::string& file) {
  try {
    std::rethrow_exception(error);
  } catch (const InvalidInput& e) {
    throw InvalidInput(file + ": " + e.what());
  }
}

PieceProducer::PieceProducer(const StreamedTensors& tensors, std::size_t ahead)
    : ahead_(std::max<std::size_t>(ahead, 1)) {
  const bool any = std::any_of(tensors.begin(), tensors.end(), [](const auto& entry) {
    return std::holds_alternative<PiecedTensor>(entry.second);
  });
  if (any) {
    thread_ = std::thread([this, &tensors] { run(tensors); });
  } else {
    done_ = true;
  }
}

PieceProducer::~PieceProducer() { stop(); }

void PieceProducer::stop() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
    ready_.clear();
  }
  changed_.notify_all();
  if (thread_.joinable()) thread_.join();
}

void PieceProducer::run(const StreamedTensors& tensors) {
  try {
    for (const auto& [name, entry] : tensors) {
      const auto* pieced = std::get_if<PiecedTensor>(&entry);
      if (pieced == nullptr) continue;
      const std::uint64_t total = byte_size(entry);
      std::uint64_t made = 0;
      for (std::int64_t k = 0; k < pieced->pieces; ++k) {
        {
          std::unique_lock lock(mutex_);
          changed_.wait(lock, [this] { return stopping_ || ready_.size() < ahead_; });
          if (stopping_) return;
        }
        Tensor piece = pieced->piece(k);
        made += std::as_const(piece).bytes().size();
        if (piece.type() != pieced->type || made > total) {
          throw InvalidInput("\"" + name + "\": piece " + std::to_string(k) + " of " +
                             std::to_string(pieced->pieces) + " is " +
                             (piece.type() != pieced->type ? "not of the tensor's element type"
                                                           : "past the end of the tensor") +
                             " (a bug in mhaviz: please report it)");
        }
        std::lock_guard lock(mutex_);
        ready_.push_back({&name, std::move(piece)});
        changed_.notify_all();
      }
      if (made != total) {
        throw InvalidInput("\"" + name + "\": its pieces hold " + std::to_string(made) +
                           " bytes of the tensor's " + std::to_string(total) +
                           " (a bug in mhaviz: please report it)");
      }
    }
  } catch (...) {
    std::lock_guard lock(mutex_);
    error_ = std::current_exception();
  }
  std::lock_guard lock(mutex_);
  done_ = true;
  changed_.notify_all();
}

Tensor PieceProducer::next(const std::string& name) {
  std::unique_lock lock(mutex_);
  changed_.wait(lock, [this] { return !ready_.empty() || done_ || stopping_; });
  if (ready_.empty()) {
    if (error_) std::rethrow_exception(error_);
    throw InvalidInput("\"" + name +
                       "\": the writer asked for more pieces than were made (a bug in mhaviz: "
                       "please report it)");
  }
  Piece piece = std::move(ready_.front());
  ready_.pop_front();
  changed_.notify_all();
  if (*piece.name != name) {
    throw InvalidInput("\"" + name + "\": the writer was given a piece of \"" + *piece.name +
                       "\" (a bug in mhaviz: please report it)");
  }
  return std::move(piece.bytes);
}

}  // namespace mhaviz::io
