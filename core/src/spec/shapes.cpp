#include "mhaviz/core/spec/shapes.hpp"

#include <sstream>

namespace mhaviz {

std::vector<ShapeStep> shape_flow(const Config& c, std::int64_t static_src_len) {
  const bool batched = c.batched();
  const bool bf = batched && c.batch_first;
  const std::int64_t N = c.batch(), L = c.tgt_len, E = c.embed_dim, H = c.num_heads;
  const std::int64_t hd = c.head_dim();
  const std::int64_t S = c.src_len;
  const std::int64_t S1 = static_src_len >= 0 ? static_src_len : S;
  const bool has_static = static_src_len >= 0;
  const std::string s_sym = has_static ? "S_static" : "S";

  // The layout of a (len, features) sequence tensor in the input form.
  const auto io = [&](std::int64_t len, const std::string& lsym, std::int64_t f,
                      const std::string& fsym) -> std::pair<Shape, std::string> {
    if (!batched) return {{len, f}, "(" + lsym + ", " + fsym + ")"};
    if (bf) return {{N, len, f}, "(N, " + lsym + ", " + fsym + ")"};
    return {{len, N, f}, "(" + lsym + ", N, " + fsym + ")"};
  };
  std::vector<ShapeStep> steps;
  const auto add = [&](std::string step, std::string tensor, std::pair<Shape, std::string> s) {
    steps.push_back({std::move(step), std::move(tensor), std::move(s.first), std::move(s.second)});
  };
  add("input", "query", io(L, "L", E, "E"));
  add("input", "key", io(S, "S", c.k_dim(), c.kdim ? "kdim" : "E"));
  add("input", "value", io(S, "S", c.v_dim(), c.vdim ? "vdim" : "E"));
  add("in-projection x @ W.T + b", "q", {{L, N, E}, "(L, N, E)"});
  add("in-projection x @ W.T + b", "k", {{S, N, E}, "(S, N, E)"});
  add("in-projection x @ W.T + b", "v", {{S, N, E}, "(S, N, E)"});
  std::int64_t Sx = S;
  std::string sx_sym = "S";
  if (c.add_bias_kv) {
    Sx = S + 1;
    sx_sym = "S+1";
    add("add_bias_kv: append bias_k / bias_v", "k, v", {{Sx, N, E}, "(S+1, N, E)"});
  }
  add("head split", "q", {{N * H, L, hd}, "(N*H, L, hd)"});
  add("head split", "k, v", {{N * H, Sx, hd}, "(N*H, " + sx_sym + ", hd)"});
  if (has_static) {
    Sx = S1;
    sx_sym = s_sym;
    add("static_k / static_v replace k, v", "k, v", {{N * H, Sx, hd}, "(N*H, S_static, hd)"});
  }
  if (c.add_zero_attn) {
    Sx += 1;
    sx_sym = c.add_bias_kv ? "S+2" : sx_sym + "+1";
    add("add_zero_attn: append a zero key / value", "k, v",
        {{N * H, Sx, hd}, "(N*H, " + sx_sym + ", hd)"});
  }
  if (c.attn_logit_softcapping) {
    std::ostringstream cap;
    cap << *c.attn_logit_softcapping;
    const Shape scores = {N * H, L, Sx};
    const std::string sym = "(N*H, L, " + sx_sym + ")";
    add("raw scores (q / sqrt(hd)) @ k^T", "raw_scores", {scores, sym});
    add("soft-cap " + cap.str() + " * tanh(raw / " + cap.str() + ")", "capped_scores",
        {scores, sym});
    add("capped scores + mask", "scores", {scores, sym});
  } else {
    add("scores (q / sqrt(hd)) @ k^T + mask", "scores",
        {{N * H, L, Sx}, "(N*H, L, " + sx_sym + ")"});
  }
  add("softmax over keys", "weights", {{N * H, L, Sx}, "(N*H, L, " + sx_sym + ")"});
  add("weights @ v", "head outputs", {{N * H, L, hd}, "(N*H, L, hd)"});
  add("merge heads", "merged", {{L, N, E}, "(L, N, E)"});
  add("out_proj", "attn_output", io(L, "L", E, "E"));
  if (c.need_weights) {
    const std::string sym =
        c.average_attn_weights ? "(N, L, " + sx_sym + ")" : "(N, H, L, " + sx_sym + ")";
    Shape w = c.average_attn_weights ? Shape{N, L, Sx} : Shape{N, H, L, Sx};
    std::string wsym = sym;
    if (!batched) {
      w.erase(w.begin());
      wsym = "(" + sym.substr(4);
    }
    add(c.average_attn_weights ? "weights averaged over heads" : "weights per head",
        "attn_output_weights", {w, wsym});
  }
  return steps;
}

}  // namespace mhaviz
