// mhaviz-gallery's states of the Explore grid (gallery.hpp): the first picture at three sizes,
// masks and stages, long contexts reduced and zoomed, presentation mode, the patterns with the
// mask editor in front, and two configurations compared.

#include "gallery.hpp"

namespace mhaviz::gallery {

namespace {

using mhaviz::ui::Stage;
using mhaviz::ui::ViewOptions;

// Configurations of the pattern states shown more than once (themes, languages).
constexpr const char* kPrefixLm =
    R"({"embed_dim": 16, "num_heads": 2, "tgt_len": 12, "src_len": 12, "seed": 4,
        "inputs": {"kind": "sinusoidal", "content_scale": 0.3, "self_attention": true},
        "attn_mask": {"kind": "prefix_lm", "prefix_length": 4}})";
constexpr const char* kDocument =
    R"({"embed_dim": 16, "num_heads": 2, "tgt_len": 12, "src_len": 12, "seed": 4,
        "inputs": {"kind": "sinusoidal", "content_scale": 0.3, "self_attention": true},
        "attn_mask": {"kind": "document", "document_lengths": [4, 3, 5], "causal": true}})";
constexpr const char* kSink =
    R"({"embed_dim": 16, "num_heads": 2, "tgt_len": 16, "src_len": 16, "seed": 4,
        "inputs": {"kind": "sinusoidal", "content_scale": 0.3, "self_attention": true},
        "attn_mask": {"kind": "sink", "sink_tokens": 2, "width": 4}})";
// 512 positions: 8 x 8 blocks of 64, 4 x 4 of 128, for the block grid.
constexpr const char* kBlockSparsity =
    R"({"embed_dim": 16, "num_heads": 2, "tgt_len": 512, "src_len": 512, "seed": 4,
        "inputs": {"kind": "sinusoidal", "content_scale": 0.3, "self_attention": true},
        "attn_mask": {"kind": "document", "document_lengths": [200, 120, 192], "causal": true}})";

// 3000 tokens with a band mask of 40 keys each side (the long-context states).
constexpr const char* kBand3000 =
    R"({"embed_dim": 64, "num_heads": 4, "tgt_len": 3000, "src_len": 3000, "seed": 1,
        "inputs": {"kind": "sinusoidal", "content_scale": 0.3, "self_attention": true},
        "attn_mask": {"kind": "band", "width": 40, "dtype": "bool", "shape": "2d"}})";

// The compare states: A with bias_k, B with the zero key and a causal mask.
constexpr const char* kCompareA =
    R"({"embed_dim": 16, "num_heads": 2, "tgt_len": 6, "src_len": 6, "seed": 3,
        "add_bias_kv": true,
        "inputs": {"kind": "sinusoidal", "content_scale": 0.3, "self_attention": true}})";
constexpr const char* kCompareB =
    R"({"embed_dim": 16, "num_heads": 2, "tgt_len": 6, "src_len": 6, "seed": 3,
        "add_zero_attn": true,
        "inputs": {"kind": "sinusoidal", "content_scale": 0.3, "self_attention": true},
        "attn_mask": {"kind": "causal", "dtype": "bool", "shape": "2d"}})";

constexpr const char* kCompareNanJson =
    R"({"embed_dim": 16, "num_heads": 2, "batch_size": 3, "tgt_len": 6, "src_len": 6,
        "need_weights": false, "key_padding_mask": {"valid_lengths": [6, 4, 0]}})";
constexpr const char* kCompareNanB =
    R"({"embed_dim": 16, "num_heads": 2, "batch_size": 3, "tgt_len": 6, "src_len": 6,
        "need_weights": false, "semantics": "1.13",
        "key_padding_mask": {"valid_lengths": [6, 4, 0]}})";

// 32768 tokens, causal: over the window's 4 GiB limit, so the reduced view.
constexpr const char* kCausal32k =
    R"({"embed_dim": 64, "num_heads": 4, "tgt_len": 32768, "src_len": 32768, "seed": 1,
        "is_causal": true, "attn_mask": {"kind": "causal", "dtype": "bool", "shape": "2d"},
        "inputs": {"kind": "sinusoidal", "content_scale": 0.3, "self_attention": true}})";

}  // namespace

QList<Shot> gridShots() {
  return {
      {"default", nullptr, {}},
      {"bias_k_zero",
       R"({"embed_dim": 16, "num_heads": 2, "tgt_len": 6, "src_len": 6, "seed": 3,
           "add_bias_kv": true, "add_zero_attn": true,
           "inputs": {"kind": "sinusoidal", "content_scale": 0.3, "self_attention": true}})",
       {}},
      {"causal_padding_nan",
       R"({"embed_dim": 16, "num_heads": 2, "batch_size": 2, "tgt_len": 6, "src_len": 6,
           "seed": 2, "inputs": {"kind": "sinusoidal", "content_scale": 0.3,
                                 "self_attention": true},
           "attn_mask": {"kind": "causal", "dtype": "bool", "shape": "2d"},
           "key_padding_mask": {"padded_keys": [[0, 4, 5], []], "dtype": "bool"}})",
       {}},
      {"alibi_per_head",
       R"({"embed_dim": 32, "num_heads": 4, "tgt_len": 10, "src_len": 10, "seed": 5,
           "average_attn_weights": false,
           "inputs": {"kind": "random", "scale": 1.0, "self_attention": true},
           "attn_mask": {"kind": "alibi", "dtype": "float", "shape": "3d", "causal": true}})",
       [](ViewOptions& v) { v.stage = Stage::mask; }},
      {"in_proj_weight_8_heads",
       R"({"embed_dim": 32, "num_heads": 8, "tgt_len": 8, "src_len": 8, "seed": 1})",
       [](ViewOptions& v) { v.stage = Stage::in_proj_weight; }},
      {"presentation",
       R"({"embed_dim": 16, "num_heads": 4, "tgt_len": 8, "src_len": 8, "seed": 1,
           "inputs": {"kind": "sinusoidal", "content_scale": 0.3, "self_attention": true},
           "attn_mask": {"kind": "causal", "dtype": "bool", "shape": "2d"}})",
       {},
       false,
       false,
       true},
      // Every map needs 0.55 GiB, over a 256 MiB limit: the reduced view (block mean of 6x6
      // cells, the status bar says so), as a 32768-token context under the 4 GiB limit. A band
      // mask of 40 keys each side keeps the weights on a diagonal that the fold must keep.
      {"long_context_reduced", kBand3000, [](ViewOptions& v) { v.autoRange = true; }, false, false,
       false, false, 256ULL << 20},
      {"long_context_reduced_zh_dark", kBand3000,
       [](ViewOptions& v) {
         v.autoRange = true;
         v.reduce = mhaviz::ui::Reduce::max;
       },
       true, true, false, false, 256ULL << 20},
      // Zoomed: queries and keys 600..849, computed as exact cells; queries and keys 0..1199,
      // still folded (block max of 5x5 cells into maps of about 250 pixels).
      {"long_context_zoomed_exact",
       kBand3000,
       [](ViewOptions& v) { v.autoRange = true; },
       false,
       false,
       false,
       false,
       256ULL << 20,
       nullptr,
       {600, 850, 600, 850}},
      {"long_context_zoomed_folded_zh_dark",
       kBand3000,
       [](ViewOptions& v) {
         v.autoRange = true;
         v.reduce = mhaviz::ui::Reduce::max;
       },
       true,
       true,
       false,
       false,
       256ULL << 20,
       nullptr,
       {0, 1200, 0, 1200}},
      // L = S = 32768, causal (E = 64, H = 4: the whole view takes 50 s on two cores): the
      // reduced view (block mean of 64x64 cells) with its default colour range, saved as
      // long_context_32k_causal, then zoomed into queries 8192..8447, keys 8000..8255 as the
      // wheel would: exact cells.
      {.name = "long_context_32k_zoomed",
       .configJson = kCausal32k,
       .view = {},
       .memoryLimit = 4ULL << 30,
       .zoom = {8192, 8448, 8000, 8256},
       .beforeZoom = "long_context_32k_causal"},
      {"dark", nullptr, {}, false, true},
      // The first picture at a small projector's and a full-HD screen's size, light and dark
      // Chinese: how much of the centre the maps cover (tests/ui/test_map_coverage.cpp).
      {.name = "default_1280x720", .configJson = nullptr, .view = {}, .size = QSize(1280, 720)},
      {.name = "default_1280x720_dark_chinese",
       .configJson = nullptr,
       .view = {},
       .chinese = true,
       .dark = true,
       .size = QSize(1280, 720)},
      {.name = "default_1920x1080", .configJson = nullptr, .view = {}, .size = QSize(1920, 1080)},
      {.name = "default_1920x1080_dark_chinese",
       .configJson = nullptr,
       .view = {},
       .chinese = true,
       .dark = true,
       .size = QSize(1920, 1080)},
      // Presentation mode at 1280x720 on the value-norms step (its colour scale's long title).
      {.name = "presentation_value_norms_1280x720",
       .configJson = kValueNormsJson,
       .view = [](ViewOptions& v) { v.stage = Stage::value_norms; },
       .presentation = true,
       .size = QSize(1280, 720)},
      // Presentation mode at 1280x720 with eight heads, bias_k and the zero key: every map on
      // the screen, none scrolled off.
      {.name = "presentation_8_heads_1280x720",
       .configJson = kWorkspaceJson,
       .view = {},
       .presentation = true,
       .size = QSize(1280, 720)},
      {"chinese", nullptr, {}, true},
      {"value_norms", kValueNormsJson, [](ViewOptions& v) { v.stage = Stage::value_norms; }},
      {"value_zeroing", kValueNormsJson, [](ViewOptions& v) { v.stage = Stage::value_zeroing; }},
      {"sink_scores", kValueNormsJson, [](ViewOptions& v) { v.stage = Stage::sink_scores; }},
      {"sink_scores_dark_chinese", kValueNormsJson,
       [](ViewOptions& v) { v.stage = Stage::sink_scores; }, true, true},
      {"value_norms_dark_chinese", kValueNormsJson,
       [](ViewOptions& v) { v.stage = Stage::value_norms; }, true, true},
      {"head_measures_weights", kValueNormsJson, {}, false, true},
      // Patterns from current practice (docs/config.md), each with the mask editor in front.
      {"pattern_prefix_lm", kPrefixLm, {}, false, false, false, true},
      {"pattern_document", kDocument, {}, false, false, false, true},
      {"pattern_dilated",
       R"({"embed_dim": 16, "num_heads": 2, "tgt_len": 16, "src_len": 16, "seed": 4,
           "inputs": {"kind": "sinusoidal", "content_scale": 0.3, "self_attention": true},
           "attn_mask": {"kind": "dilated", "width": 3, "dilation": 3, "dtype": "float",
                         "shape": "3d"}})",
       [](ViewOptions& v) { v.stage = Stage::mask; }, false, false, false, true},
      {"pattern_sink", kSink, {}, false, false, false, true},
      {"pattern_sink_dark_zh", kSink, {}, true, true, false, true},
      {"pattern_softcap",
       R"({"embed_dim": 16, "num_heads": 2, "tgt_len": 8, "src_len": 8, "seed": 6,
           "attn_logit_softcapping": 1.0, "average_attn_weights": false,
           "inputs": {"kind": "random", "scale": 3.0, "self_attention": true},
           "attn_mask": {"kind": "causal"}})",
       [](ViewOptions& v) { v.stage = Stage::capped_scores; }},
      {"block_sparsity", kBlockSparsity, {}, false, false, false, true},
      {"block_sparsity_dark", kBlockSparsity, {}, false, true, false, true},
      {"block_sparsity_zh", kBlockSparsity, {}, true, false, false, true},
      {"compare", kCompareA, {}, false, false, false, false, 0, kCompareB},
      {"compare_dark", kCompareA, {}, false, true, false, false, 0, kCompareB},
      {"compare_chinese", kCompareA, {}, true, false, false, false, 0, kCompareB},
      // A = 2.x, B = 1.13, need_weights=False, batch element 2 fully padded: B - A is NaN and
      // the line above the grids says where it comes from.
      {.name = "compare_nan",
       .configJson = kCompareNanJson,
       .view = [](ViewOptions& v) { v.batch = 2; },
       .compareB = kCompareNanB},
      {.name = "compare_nan_dark_chinese",
       .configJson = kCompareNanJson,
       .view = [](ViewOptions& v) { v.batch = 2; },
       .chinese = true,
       .dark = true,
       .compareB = kCompareNanB},
  };
}

}  // namespace mhaviz::gallery
