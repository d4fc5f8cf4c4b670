// libFuzzer target: plain attention weights read as a weights-only model
// (mhaviz::model::weights_model, what `mhaviz-cli model --weights W.npz` reads) from arbitrary
// .npz bytes, then everything a weights-only model feeds: the stored weights, the sink scores,
// rollout and attention flow. Bad input must be an InvalidInput, never a crash.
#include <cstdint>

#include "fuzz_common.hpp"
#include "mhaviz/core/base/errors.hpp"
#include "mhaviz/core/io/npz.hpp"
#include "mhaviz/core/model/weights_only.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace mhaviz;
  try {
    io::TensorMap tensors = io::parse_npz(fuzz::as_bytes(data, size), "fuzz.npz");
    const model::Model m = model::weights_model(std::move(tensors), {}, "fuzz.npz", 64ULL << 20);
    const model::ComputedModel computed = model::compute_model(m);
    (void)model::sink_rates(computed);
    (void)model::attention_rollout(m, computed.weights);
    (void)model::attention_flow(m, computed.weights);
  } catch (const InvalidInput&) {
    // refused with a message: what the reader must do with bad input
  }
  return 0;
}
