#include "teach/stage_guide.hpp"

#include <QCoreApplication>
#include <algorithm>

#include "mhaviz/core/forward/result.hpp"

namespace mhaviz::ui {
namespace {

QString tr(const char* text) { return QCoreApplication::translate("mhaviz::ui", text); }

}  // namespace

QList<GuideStep> guideSteps() {
  return {
      {Stage::in_proj_weight, tr("Parameters: the in-projection"),
       tr("query, key and value are multiplied by the learned projection matrices. With "
          "kdim == vdim == embed_dim PyTorch packs them into one in_proj_weight of shape (3E, E): "
          "rows [0, E) are W_q, rows [E, 2E) are W_k and rows [2E, 3E) are W_v, the value "
          "projection. Head h uses rows [h*hd, (h+1)*hd) of each block, shown as one map per "
          "head slice. With other kdim/vdim the three matrices are separate."),
       QStringLiteral("q, k, v = _in_projection_packed(query, key, value, in_proj_weight, "
                      "in_proj_bias)")},
      {Stage::q, tr("q: projected queries, split into heads"),
       tr("Each query row is projected (x @ W_q.T + b_q) and its E features are cut into H "
          "heads of hd = E/H features: head h owns features [h*hd, (h+1)*hd). The map shows q "
          "for one head, one row per query, before the 1/sqrt(hd) scaling."),
       QStringLiteral("q = q.view(tgt_len, bsz * num_heads, head_dim).transpose(0, 1)")},
      {Stage::k, tr("k: projected keys, with bias_k and the zero key"),
       tr("Keys are projected with W_k and split into heads like q. add_bias_kv appends (it "
          "does not prepend) the learned row bias_k at the END of the keys, after the "
          "projection and before the head split; add_zero_attn appends an all-zero row after "
          "the head split. These extra rows are the last rows of the map: S+1 with one option, "
          "S+2 with both."),
       QStringLiteral("k = torch.cat([k, bias_k.repeat(1, bsz, 1)])  # add_bias_kv\n"
                      "k = torch.cat([k, torch.zeros(zero_attn_shape)], dim=1)  # add_zero_attn")},
      {Stage::v, tr("v: projected values, with bias_v and the zero value"),
       tr("Values are projected with W_v (the third block of in_proj_weight) and split into "
          "heads. bias_v and the zero value are appended exactly where bias_k and the zero key "
          "are, so key column j always pairs with value row j."),
       QStringLiteral("v = torch.cat([v, bias_v.repeat(1, bsz, 1)])  # add_bias_kv\n"
                      "v = torch.cat([v, torch.zeros(zero_attn_shape)], dim=1)  # add_zero_attn")},
      {Stage::raw_scores, tr("Raw scores: q k^T / sqrt(hd)"),
       tr("Every query is compared with every key by a dot product, scaled by 1/sqrt(hd) so "
          "that the scores do not grow with the head size. Row i, column j is "
          "(q_i . k_j) / sqrt(hd). The zero key's raw score is exactly 0 for every query."),
       QStringLiteral("q_scaled = q / math.sqrt(E)  # E is head_dim here\n"
                      "attn_output_weights = torch.bmm(q_scaled, k.transpose(-2, -1))")},
      {Stage::capped_scores, tr("Soft-capped scores: cap * tanh(raw / cap)"),
       tr("With attn_logit_softcapping (Gemma 2's soft-cap; not a PyTorch argument) every "
          "scaled raw score s becomes cap * tanh(s / cap) BEFORE the mask is added: close to s "
          "when |s| is small against the cap, never beyond +-cap, so one key cannot take all "
          "the weight through an extreme score. Masked keys stay -inf after the mask."),
       QStringLiteral("attn_output_weights = softcap * torch.tanh(attn_output_weights / softcap)"
                      "  # Gemma 2")},
      {Stage::mask, tr("The merged additive mask"),
       tr("attn_mask and key_padding_mask are merged into one float mask that is ADDED to the "
          "scores. A bool True means masked and becomes -inf; a float mask is added as it is. "
          "The bias_k and zero columns get 0: they are never masked."),
       QStringLiteral("attn_mask = attn_mask + key_padding_mask.view(bsz, 1, 1, src_len)"
                      ".expand(-1, num_heads, -1, -1).reshape(bsz * num_heads, 1, src_len)")},
      {Stage::scores, tr("Masked scores: the softmax input"),
       tr("The mask is added to the scaled scores in one fused call. Masked cells are -inf; a "
          "float bias (ALiBi, a graph distance) shifts the scores of each head."),
       QStringLiteral("attn_output_weights = torch.baddbmm(attn_mask, q_scaled, "
                      "k.transpose(-2, -1))")},
      {Stage::weights_before_dropout, tr("Attention weights (softmax)"),
       tr("Each row is turned into probabilities: exp(score - row max) divided by the row's "
          "sum. Masked keys get weight 0. A row whose every key is masked is -inf everywhere, so "
          "softmax computes 0/0 = NaN."),
       QStringLiteral("attn_output_weights = softmax(attn_output_weights, dim=-1)")},
      {Stage::weights, tr("Attention weights after dropout"),
       tr("When training with dropout p > 0, each weight is zeroed with probability p and the "
          "kept ones are divided by (1 - p). In eval mode the weights are the softmax itself. "
          "These are the weights PyTorch returns (averaged over heads when "
          "average_attn_weights=True)."),
       QStringLiteral("if dropout_p > 0.0:\n"
                      "    attn_output_weights = dropout(attn_output_weights, p=dropout_p)")},
      {Stage::head_output, tr("Head outputs: weights @ v"),
       tr("Each query's output in head h is the weighted sum of the value rows of that head, "
          "including bias_v and the zero value. A NaN weight row gives a NaN output row."),
       QStringLiteral("attn_output = torch.bmm(attn_output_weights, v)")},
      {Stage::merged, tr("Heads merged (before out_proj)"),
       tr("The H head outputs are concatenated back into E features: head h fills features "
          "[h*hd, (h+1)*hd) of each query row."),
       QStringLiteral("attn_output = attn_output.transpose(0, 1).contiguous()"
                      ".view(tgt_len * bsz, embed_dim)")},
      {Stage::out_proj_weight, tr("Parameters: out_proj.weight"),
       tr("The output projection mixes the concatenated heads: a (E, E) matrix whose column "
          "block [h*hd, (h+1)*hd) reads head h's features."),
       QStringLiteral("attn_output = linear(attn_output, out_proj_weight, out_proj_bias)")},
      {Stage::output, tr("Output: out_proj"),
       tr("The merged features go through out_proj (x @ W_o.T + b_o). This is attn_output, "
          "PyTorch's first return value (transposed to (N, L, E) when batch_first)."),
       QStringLiteral("attn_output = attn_output.view(tgt_len, bsz, attn_output.size(1))")},
      {Stage::value_norms, tr("Analysis: value-weighted norms"),
       tr("Not a PyTorch step: || weight * f_h(x_j) || with f_h(x_j) = v_j W_O^h (Kobayashi et "
          "al. 2020), what key j really adds to query i's output through head h. The zero key "
          "adds nothing (its value is 0); bias_k's value is bias_v. Last map: the sum over heads."),
       QStringLiteral(
           "norm = (w[h, i, j] * (v[h, j] @ out_proj.weight[:, h*hd:(h+1)*hd].T)).norm()")},
      {Stage::value_zeroing, tr("Analysis: value zeroing"),
       tr("Not a PyTorch step: how much query i's output row changes when key j's value vector "
          "is zeroed in every head, the weights kept (Mohebbi et al. 2023, here within the "
          "attention layer only). First map: cosine distance 1 - cos(o, o'); second: |o' - o| / "
          "|o|. The zero key's value is already 0, so its column is 0."),
       QStringLiteral("v2 = v.clone(); v2[:, j] = 0; o2 = out_proj(merge(w @ v2)); "
                      "d = 1 - cos(o[i], o2[i])")},
      {Stage::sink_scores, tr("Analysis: sink scores"),
       tr("Not a PyTorch step: each key column's mean weight over the queries, per head (Gu et "
          "al. 2024). A key most queries look at, often the first token, is an attention sink; "
          "a query whose keys are all masked has no weight to give and is left out. With "
          "add_zero_attn the zero column's score is the head's mean weight sent to nothing."),
       QStringLiteral("score[h, j] = w[h, open_rows, j].mean()")},
  };
}

GuideStep guideStep(Stage stage, const mhaviz::ForwardResult* result) {
  for (GuideStep step : guideSteps()) {
    if (step.stage != stage) continue;
    // The k and v titles name the rows appended only where the result has them.
    if (result != nullptr && (stage == Stage::k || stage == Stage::v)) {
      const bool bias = result->config.add_bias_kv;
      const bool zero = result->config.add_zero_attn;
      if (stage == Stage::k) {
        step.title = bias && zero ? step.title
                     : bias       ? tr("k: projected keys, with bias_k")
                     : zero       ? tr("k: projected keys, with the zero key")
                                  : tr("k: projected keys, split into heads");
      } else {
        step.title = bias && zero ? step.title
                     : bias       ? tr("v: projected values, with bias_v")
                     : zero       ? tr("v: projected values, with the zero value")
                                  : tr("v: projected values, split into heads");
      }
    }
    return step;
  }
  return {stage, stageName(stage), {}, {}};
}

QList<Stage> walkStages(const mhaviz::ForwardResult* result) {
  QList<Stage> stages;
  for (const GuideStep& step : guideSteps()) {
    if (result != nullptr && !stageIn(step.stage, *result)) continue;
    // Without a result the walk-through lists every stage but the optional soft-cap.
    if (result == nullptr && step.stage == Stage::capped_scores) continue;
    stages << step.stage;
  }
  return stages;
}

Stage stepFrom(Stage current, int delta, const mhaviz::ForwardResult* result) {
  const QList<Stage> stages = walkStages(result);
  auto i = stages.indexOf(current);
  if (i < 0) {
    // weights_before_dropout without dropout shows the weights: continue from there.
    i = stages.indexOf(Stage::weights);
  }
  i = std::clamp<qsizetype>(i + delta, 0, stages.size() - 1);
  return stages[i];
}

}  // namespace mhaviz::ui
