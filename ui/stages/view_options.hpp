#pragma once
// What the heatmap grid shows and how: one copyable value shared by the window, the grid and
// image export. Compared with == to decide whether a re-render is needed.

#include <QString>
#include <QStringList>
#include <cstdint>

namespace mhaviz {
struct Config;
struct ForwardResult;
}  // namespace mhaviz

namespace mhaviz::ui {

/// The intermediate of F.multi_head_attention_forward the grid shows.
enum class Stage {
  weights,
  weights_before_dropout,
  raw_scores,
  mask,
  scores,
  q,
  k,
  v,
  head_output,
  merged,
  output,
  in_proj_weight,   // parameters: W_q / W_k / W_v (or q/k/v_proj_weight), one map per head slice
  out_proj_weight,  // parameters: out_proj.weight
  capped_scores,    // cap * tanh(raw / cap): only when attn_logit_softcapping is set
  value_norms,      // ‖α_ij f_h(x_j)‖ per head and summed over heads (Kobayashi et al. 2020)
  value_zeroing,    // change of output row i when v_j is zeroed in every head (Mohebbi et al.
                    // 2023): cosine distance and relative L2, one L × S' map each
  sink_scores       // per head, each key column's mean weight over the queries (Gu et al.
                    // 2024): a heads × S' map and their mean over heads
};

enum class Colormap { viridis, magma, cividis, grayscale, diverging };

/// Rule used when a map has more cells than screen pixels: each pixel block shows the mean or
/// the max of the cells it covers.
enum class Reduce { mean, max };

struct ViewOptions {
  int batch = 0;  // batch element n shown
  Stage stage = Stage::weights;
  Colormap colormap = Colormap::viridis;  // signed stages are drawn with `diverging` unless
                                          // grayscale/diverging is chosen explicitly
  bool perHeadScale = false;              // false: one shared scale (0..1 fixed for weights)
  bool autoRange = false;   // shared scale of unsigned stages from the data (0..largest value)
                            // instead of the fixed 0..1; signed stages are always automatic
  int soloHead = -1;        // -1: all heads; h: only head h, large
  bool showAverage = true;  // add the head-average map (PyTorch's average_attn_weights)
  Reduce reduce = Reduce::mean;
  QStringList queryLabels, keyLabels;  // token labels; empty = indices
  // Grouped-query attention (a weights-only model's num_key_value_heads): the key/value heads
  // the heads share, grouped where heads are listed; 0: every head has its own.
  int kvHeads = 0;
  bool operator==(const ViewOptions&) const = default;
};

/// What a view can show: the sizes and token labels of the settings being computed or of the
/// result on screen, and the stages that result holds. The document fits every view to it
/// (Document::setViewBounds); the default fits nothing.
struct ViewBounds {
  bool sized = false;  // batches, heads and the labels are known (false: a view keeps its own)
  std::int64_t batches = 1, heads = 1;
  QStringList queryLabels, keyLabels;
  bool beforeDropout = true;  // weights_before_dropout is there (false: weights are shown)
  bool cappedScores = true;   // capped_scores is there (false: raw_scores are shown)
  bool weightsOnly = false;   // a reduced result: the weights are all it has
};

/// The bounds of settings that are being computed: their sizes and token labels (Config::
/// query_labels / key_labels); any stage may come.
ViewBounds viewBounds(const mhaviz::Config& config);
/// The bounds of a result: its sizes, its config's token labels, and the stages it holds
/// (weights_before_dropout only after dropout, capped_scores only with attn_logit_softcapping).
ViewBounds viewBounds(const mhaviz::ForwardResult& result);
/// `view` fitted to `bounds`: batch element and solo head in range, the bounds' labels on the
/// axes, and a stage that is there (weights instead of weights before dropout, raw scores instead
/// of capped scores, weights alone in a reduced result).
ViewOptions fitView(ViewOptions view, const ViewBounds& bounds);

/// "weights", "raw scores", "q", ... (lower case, for titles and file names).
QString stageName(Stage stage);
/// True for stages whose values are signed (scores, mask, q, k, v, outputs): drawn with a
/// diverging colormap centred on 0.
bool stageIsSigned(Stage stage);

/// True for the stages drawn from the result's measures (value norms, value zeroing, sink
/// scores), which
/// arrive after the result itself.
bool stageNeedsMeasures(Stage stage);

/// Every stage in the order the stage selectors list them.
QList<Stage> allStages();
/// Whether `result` has the stage: weights_before_dropout only after dropout, capped_scores only
/// with attn_logit_softcapping; every other stage always.
bool stageIn(Stage stage, const mhaviz::ForwardResult& result);

}  // namespace mhaviz::ui
