#pragma once
// The tensors of a forward pass by name, as `mhaviz-cli run` and the window's data export
// write them, whole (result_tensors) or with the derived maps made as they are written
// (result_stream).

#include <cstddef>

#include "mhaviz/core/base/tensor_map.hpp"
#include "mhaviz/core/forward/result.hpp"
#include "mhaviz/core/io/streamed_tensors.hpp"

namespace mhaviz::io {

/// PyTorch's return values and every intermediate, N = 1 for unbatched input:
///   attn_output             PyTorch's first return value, in its layout ((L,N,E), (N,L,E) when
///                           batch_first, (L,E) unbatched)
///   attn_output_weights     PyTorch's second return value, only when need_weights
///   q                       (N,H,L,hd) projected query split into heads (not scaled)
///   k, v                    (N,H,S',hd) projected keys/values with bias_k/bias_v and zero rows
///   raw_scores              (N,H,L,S') (q / sqrt(hd)) @ k^T
///   mask                    (N,H,L,S') merged additive mask, 0 where nothing is masked
///   scores                  (N,H,L,S') raw_scores + mask, the softmax input
///   weights_per_head        (N,H,L,S') softmax(scores), after dropout when it applied
///   weights_before_dropout  (N,H,L,S') only when dropout applied (training, dropout > 0)
///   head_output             (N,H,L,hd) weights_per_head @ v
///   merged                  (N,L,E) heads concatenated, before out_proj
///   output                  (N,L,E) after out_proj (attn_output in (N,L,E) layout)
/// raw_scores, mask and scores are derived on demand (derived_maps.hpp) on `threads` threads.
TensorMap result_tensors(const ForwardResult& result, int threads = 1);

/// The same tensors for the streamed writers (write_tensor_file_streamed and the like), with
/// raw_scores, mask, capped_scores and scores made in pieces of about `piece_bytes` (whole
/// rows of one head) while the file is written, never whole: the file holds the same bytes as
/// for result_tensors. `result` must outlive the returned tensors.
StreamedTensors result_stream(const ForwardResult& result, std::size_t piece_bytes = 1 << 20);

}  // namespace mhaviz::io
