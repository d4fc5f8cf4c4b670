// Validation of the generation settings, with messages naming the configuration key.
#include <algorithm>
#include <cmath>
#include <sstream>
#include <string>

#include "mhaviz/core/base/errors.hpp"
#include "mhaviz/core/gen/inputs.hpp"
#include "mhaviz/core/gen/masks.hpp"
#include "mhaviz/core/gen/weights.hpp"

namespace mhaviz::gen {

namespace {

std::string num(double v) {
  std::ostringstream os;
  os << v;
  return os.str();
}

std::string str(std::int64_t v) { return std::to_string(v); }

/// "batch_size=3 needs 3 (one per batch element)" or the unbatched equivalent.
std::string per_element(const Config& c) {
  if (!c.batched()) return "unbatched input (batch_size=null) needs exactly 1";
  return "batch_size=" + str(*c.batch_size) + " needs " + str(*c.batch_size) +
         " (one per batch element)";
}

/// A mask value: -inf or finite (+inf and NaN make every weight of the row NaN).
void check_mask_value(double v, const std::string& key) {
  if (std::isnan(v) || v == std::numeric_limits<double>::infinity()) {
    throw InvalidInput(key + " must be -inf or a finite number, got " + num(v) +
                       " (it is added to the scores; +inf and NaN make the softmax NaN)");
  }
}

void check_finite(double v, const std::string& key, bool non_negative) {
  if (!std::isfinite(v) || (non_negative && v < 0.0)) {
    throw InvalidInput(key + " must be a finite" + (non_negative ? " non-negative" : "") +
                       " number, got " + num(v));
  }
}

void check_probability(double p, const std::string& key) {
  if (!(p >= 0.0 && p <= 1.0)) {
    throw InvalidInput(key + " must be between 0 and 1, got " + num(p));
  }
}

void check_custom_cells(const Config& c, const AttnMaskSpec& m) {
  const std::int64_t blocks = c.batch() * c.num_heads;
  for (std::size_t k = 0; k < m.cells.size(); ++k) {
    const MaskCell& cell = m.cells[k];
    const std::string key = "attn_mask.cells[" + std::to_string(k) + "]";
    if (cell.i < 0 || cell.i >= c.tgt_len || cell.j < 0 || cell.j >= c.src_len) {
      throw InvalidInput(key + " = [" + str(cell.i) + ", " + str(cell.j) + "] is outside the " +
                         str(c.tgt_len) + "x" + str(c.src_len) +
                         " mask (tgt_len=" + str(c.tgt_len) + ", src_len=" + str(c.src_len) +
                         "); query i must be below tgt_len and key j below src_len");
    }
    if (cell.b != -1) {
      if (m.shape != MaskShape::three_d) {
        throw InvalidInput(key + " names block b=" + str(cell.b) +
                           " but attn_mask.shape is \"2d\"; set attn_mask.shape to \"3d\" or "
                           "drop \"b\" to apply the cell to every head");
      }
      if (cell.b < 0 || cell.b >= blocks) {
        throw InvalidInput(key + " names block b=" + str(cell.b) + " but the 3-D mask has " +
                           str(blocks) + " blocks (b = n*num_heads + h, batch " + str(c.batch()) +
                           " x num_heads " + str(c.num_heads) + "); use -1 for every block");
      }
    }
    if (cell.value) check_mask_value(*cell.value, key + " value");
  }
}

void check_graph(const Config& c, const AttnMaskSpec& m) {
  const std::int64_t nodes = std::max(c.tgt_len, c.src_len);
  for (std::size_t k = 0; k < m.edges.size(); ++k) {
    const auto& e = m.edges[k];
    if (e[0] < 0 || e[0] >= nodes || e[1] < 0 || e[1] >= nodes) {
      throw InvalidInput(
          "attn_mask.edges[" + std::to_string(k) + "] = [" + str(e[0]) + ", " + str(e[1]) +
          "] names a node outside 0.." + str(nodes - 1) +
          " (the graph has one node per position, max(tgt_len, src_len) = " + str(nodes) + ")");
    }
  }
  check_probability(m.edge_probability, "attn_mask.edge_probability");
  if (m.max_distance < 0) {
    throw InvalidInput("attn_mask.max_distance must be at least 0, got " + str(m.max_distance));
  }
  check_finite(m.table_scale, "attn_mask.table_scale", true);
}

/// The patterns of current practice (prefix_lm, document, dilated, sink).
void check_practice(const Config& c, const AttnMaskSpec& m, const std::string& kind) {
  const std::int64_t L = c.tgt_len, S = c.src_len;
  const std::string sizes = "tgt_len=" + str(L) + ", src_len=" + str(S);
  switch (m.kind) {
    case MaskKind::prefix_lm:
      if (m.prefix_length < 0 || m.prefix_length > std::min(L, S)) {
        throw InvalidInput("attn_mask.prefix_length = " + str(m.prefix_length) +
                           " is impossible: the bidirectional prefix must lie inside both the "
                           "queries and the keys (" +
                           sizes + "); set it between 0 and " + str(std::min(L, S)));
      }
      break;
    case MaskKind::document: {
      if (m.document_lengths.empty()) {
        throw InvalidInput(
            "attn_mask.document_lengths is empty; kind \"document\" needs the "
            "length of each document, e.g. [" +
            str(L) +
            "] for one document "
            "of all " +
            str(L) + " positions");
      }
      std::int64_t sum = 0;
      bool partial = false;  // lengths left out of `sum` (it was already past L)
      for (std::size_t k = 0; k < m.document_lengths.size(); ++k) {
        if (m.document_lengths[k] < 1) {
          throw InvalidInput("attn_mask.document_lengths[" + std::to_string(k) +
                             "] = " + str(m.document_lengths[k]) +
                             " is impossible: a document holds at least 1 position; remove it "
                             "or give it a positive length");
        }
        if (m.document_lengths[k] > L) {
          throw InvalidInput("attn_mask.document_lengths[" + std::to_string(k) + "] = " +
                             str(m.document_lengths[k]) + " is longer than the sequence (" + sizes +
                             "); make the lengths add up to " + str(L));
        }
        // Each length is <= L; past 2L the sum cannot come back to L, so it stops growing there
        // (no overflow however many documents are listed).
        if (sum <= L) {
          sum += m.document_lengths[k];
        } else {
          partial = true;
        }
      }
      if (L != S) {
        throw InvalidInput(
            "attn_mask.kind \"document\" packs the same documents along queries "
            "and keys, which needs tgt_len == src_len; got " +
            sizes + ". Set src_len=" + str(L) + " or choose another attn_mask.kind");
      }
      if (sum != L) {
        throw InvalidInput(
            "attn_mask.document_lengths sum to " + (partial ? "more than " + str(sum) : str(sum)) +
            " but the sequence "
            "has " +
            str(L) + " positions (" + sizes + "); make the lengths add up to " + str(L));
      }
      break;
    }
    case MaskKind::dilated:
    case MaskKind::sink:
      if (m.width < 1) {
        throw InvalidInput("attn_mask.width must be at least 1 for kind \"" + kind + "\", got " +
                           str(m.width) + " (the window holds the query's own key)");
      }
      if (m.kind == MaskKind::dilated && m.dilation < 1) {
        throw InvalidInput(
            "attn_mask.dilation must be at least 1 (1 is a plain sliding window), "
            "got " +
            str(m.dilation));
      }
      if (m.kind == MaskKind::sink && m.sink_tokens < 0) {
        throw InvalidInput(
            "attn_mask.sink_tokens must be at least 0 (the number of first keys "
            "every query sees), got " +
            str(m.sink_tokens));
      }
      break;
    default:
      break;
  }
}

}  // namespace

void check_attn_mask_spec(const Config& c) {
  const AttnMaskSpec& m = c.attn_mask_spec;
  if (m.kind == MaskKind::none) return;
  const std::string kind(to_string(m.kind));
  check_mask_value(m.masked_value, "attn_mask.masked_value");
  if (is_bias_kind(m.kind)) {
    if (m.dtype != MaskDType::floating) {
      throw InvalidInput("attn_mask.kind \"" + kind +
                         "\" adds a float bias to the scores, which a bool mask cannot hold: "
                         "set attn_mask.dtype to \"float\"");
    }
    if (m.shape != MaskShape::three_d) {
      throw InvalidInput("attn_mask.kind \"" + kind +
                         "\" gives every head its own bias, which needs the 3-D (N*H, L, S) "
                         "form: set attn_mask.shape to \"3d\"");
    }
  }
  switch (m.kind) {
    case MaskKind::window:
    case MaskKind::band:
      if (m.width < 1) {
        throw InvalidInput("attn_mask.width must be at least 1 for kind \"" + kind + "\", got " +
                           str(m.width));
      }
      break;
    case MaskKind::block:
      for (std::size_t k = 0; k < m.segments.size(); ++k) {
        if (m.segments[k] < 1) {
          throw InvalidInput("attn_mask.segments[" + std::to_string(k) +
                             "] must be at least 1 (a segment size), got " + str(m.segments[k]));
        }
      }
      break;
    case MaskKind::random:
      check_probability(m.probability, "attn_mask.probability");
      break;
    case MaskKind::custom:
      check_custom_cells(c, m);
      break;
    case MaskKind::graph:
      check_graph(c, m);
      break;
    default:
      break;
  }
}

void check_mask_pattern(const Config& c) {
  const AttnMaskSpec& m = c.attn_mask_spec;
  check_practice(c, m, std::string(to_string(m.kind)));
}

void check_key_padding_spec(const Config& c) {
  const KeyPaddingSpec& p = c.key_padding_spec;
  if (p.kind == PaddingKind::none) return;
  check_mask_value(p.masked_value, "key_padding_mask.masked_value");
  const auto want = static_cast<std::size_t>(c.batch());
  if (p.kind == PaddingKind::lengths) {
    if (p.valid_lengths.size() != want) {
      throw InvalidInput("key_padding_mask.valid_lengths has " +
                         std::to_string(p.valid_lengths.size()) + " entries but " + per_element(c));
    }
    for (std::size_t n = 0; n < want; ++n) {
      const std::int64_t len = p.valid_lengths[n];
      if (len < 0 || len > c.src_len) {
        throw InvalidInput("key_padding_mask.valid_lengths[" + std::to_string(n) +
                           "] = " + str(len) +
                           " must be between 0 (every key padded) and src_len=" + str(c.src_len) +
                           " (no key padded)");
      }
    }
    return;
  }
  if (p.padded_keys.size() != want) {
    throw InvalidInput("key_padding_mask.padded_keys has " + std::to_string(p.padded_keys.size()) +
                       " lists but " + per_element(c));
  }
  for (std::size_t n = 0; n < want; ++n) {
    for (const std::int64_t j : p.padded_keys[n]) {
      if (j < 0 || j >= c.src_len) {
        throw InvalidInput("key_padding_mask.padded_keys[" + std::to_string(n) + "] names key " +
                           str(j) + ", outside 0.." + str(c.src_len - 1) +
                           " (src_len=" + str(c.src_len) + ")");
      }
    }
  }
}

void check_input_spec(const Config& c) {
  const InputSpec& s = c.input_spec;
  check_finite(s.scale, "inputs.scale", false);
  check_finite(s.content_scale, "inputs.content_scale", true);
  if (s.self_attention &&
      (c.src_len != c.tgt_len || c.k_dim() != c.embed_dim || c.v_dim() != c.embed_dim)) {
    throw InvalidInput(
        "inputs.self_attention makes key and value the query itself, which needs src_len == "
        "tgt_len and kdim == vdim == embed_dim; got tgt_len=" +
        str(c.tgt_len) + ", src_len=" + str(c.src_len) + ", embed_dim=" + str(c.embed_dim) +
        ", kdim=" + str(c.k_dim()) + ", vdim=" + str(c.v_dim()) + ". Set src_len=" +
        str(c.tgt_len) + " and kdim/vdim to null, or set inputs.self_attention to false");
  }
}

void check_labels(const Config& c) {
  const auto check = [](const std::vector<std::string>& labels, const char* key, std::int64_t want,
                        const char* size) {
    if (!labels.empty() && static_cast<std::int64_t>(labels.size()) != want) {
      throw InvalidInput(std::string(key) + " has " + std::to_string(labels.size()) +
                         " labels but " + size + "=" + std::to_string(want) +
                         " needs one per position (or none: an empty list)");
    }
  };
  check(c.query_labels, "query_labels", c.tgt_len, "tgt_len");
  check(c.key_labels, "key_labels", c.src_len, "src_len");
}

void check_weight_spec(const Config& c) {
  check_finite(c.weight_spec.scale, "weights.scale", false);
}

void validate_generation(const Config& c) {
  check_attn_mask_spec(c);
  check_key_padding_spec(c);
  check_input_spec(c);
  check_weight_spec(c);
  check_labels(c);
}

}  // namespace mhaviz::gen
