#include "teach/explanations.hpp"

#include <QCoreApplication>
#include <QDialog>
#include <QDialogButtonBox>
#include <QMenu>
#include <QTextBrowser>
#include <QVBoxLayout>

namespace mhaviz::ui {
namespace {

QString tr(const char* text) { return QCoreApplication::translate("mhaviz::ui", text); }

void showPage(const ExplanationPage& page, QWidget* parent) {
  auto* dialog = new QDialog(parent);
  dialog->setAttribute(Qt::WA_DeleteOnClose);
  dialog->setObjectName(QStringLiteral("explanationDialog"));
  dialog->setWindowTitle(page.title);
  auto* layout = new QVBoxLayout(dialog);
  auto* text = new QTextBrowser;
  text->setHtml(page.html);
  text->setOpenExternalLinks(false);
  layout->addWidget(text);
  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close);
  QObject::connect(buttons, &QDialogButtonBox::rejected, dialog, &QDialog::close);
  layout->addWidget(buttons);
  dialog->resize(560, 380);
  dialog->show();
}

}  // namespace

QList<ExplanationPage> explanationPages() {
  return {
      {tr("Where bias_k and the zero key go"),
       tr("<p><b>A common misconception:</b> the extra keys are <b>not prepended</b> at "
          "position 0 like a [CLS] token. bias_k/bias_v are appended at the <b>end</b>, "
          "<b>after</b> the projection; the zero key is appended after them, <b>after</b> the "
          "head split. They are always the <b>last</b> key columns.</p>"
          "<p><b>add_bias_kv</b> appends one learned row <code>bias_k</code> to the keys and "
          "<code>bias_v</code> to the values: after the S source keys, after the in-projection "
          "(they are not multiplied by W_k or W_v) and before the head split. S becomes "
          "S+1.</p>"
          "<p><b>add_zero_attn</b> appends one all-zero row of width hd to k and v <b>after</b> "
          "the head split, after bias_k when both are on. With add_zero_attn alone S becomes "
          "S+1; with both options S becomes S+2. Its raw score is exactly 0 for every "
          "query.</p>"
          "<p>Both columns get mask 0: they are never masked. The grid labels them "
          "<i>bias_k</i> and <i>zero</i> and sets them apart.</p>"
          "<p><b>bias_k is a key, not a token.</b> It has <b>no query row</b>: the queries "
          "are still the L rows of the query input, so a column is added to the weights, "
          "never a row. bias_k therefore <b>never attends</b> to anything, itself included; "
          "it is only attended to. Its key is learned and the same for every input, so it "
          "acts as a learned <b>\"null\" key</b>, an <b>attention sink</b>: a query that "
          "finds no source key worth attending puts its weight there, and bias_v is what "
          "that weight adds to the output (the zero key is the same kind of sink, with a "
          "score fixed at 0 and a value that adds nothing).</p>")},
      {tr("True in a bool mask means masked"),
       tr("<p>In nn.MultiheadAttention a bool <code>attn_mask</code> or "
          "<code>key_padding_mask</code> entry <b>True means the key is hidden</b> (masked) from "
          "the query. It becomes -inf in the additive mask.</p>"
          "<p>This is the <b>opposite</b> of <code>F.scaled_dot_product_attention</code>, where "
          "True means the key takes part. Passing one framework's mask to the other inverts "
          "it.</p>")},
      {tr("Float masks are added"),
       tr("<p>A float <code>attn_mask</code> is <b>added</b> to the scaled scores before the "
          "softmax: <code>scores = q k^T / sqrt(hd) + attn_mask</code>. 0 leaves a score alone, "
          "-inf masks it, and finite values bias it (ALiBi's -m_h |i - j|, a graph distance). "
          "It is not multiplied and not a probability.</p>"
          "<p>key_padding_mask is broadcast over heads and queries and merged into the same "
          "additive mask.</p>")},
      {tr("Why NaN appears"),
       tr("<p>When <b>every</b> key of a query is masked (a fully masked causal row, or a batch "
          "element whose keys are all padding), the row of scores is -inf everywhere. Softmax "
          "computes exp(-inf - (-inf)) = 0/0 = <b>NaN</b> for every weight, and the query's "
          "output row is NaN too. PyTorch does the same.</p>"
          "<p><b>add_zero_attn</b> or <b>add_bias_kv</b> remove it: their key column is never "
          "masked, so every row has at least one finite score.</p>")},
      {tr("What average_attn_weights averages"),
       tr("<p>With <code>average_attn_weights=True</code> (the default) the returned weights "
          "are the <b>mean over the H heads</b> of the per-head softmax weights, shape (N, L, S') "
          "instead of (N, H, L, S'). Each averaged row still sums to 1. It averages the "
          "weights, not the scores, and not over batch elements. The output itself always uses "
          "each head's own weights.</p>")},
      {tr("PyTorch 1.13 and 2.x"),
       tr("<p>mhaviz follows PyTorch 2.x. Differences from 1.13:</p><ul>"
          "<li><b>uint8 masks</b>: 1.13 converts them to bool with a deprecation warning; 2.x "
          "rejects them. Use bool masks.</li>"
          "<li><b>need_weights=False</b>: 2.x goes through scaled_dot_product_attention, which "
          "since 2.5 returns <b>0</b> instead of NaN for fully masked rows (2.0-2.4 give NaN "
          "as 1.13 does) — unless the call takes 2.x's <b>fast path</b> (eval, grad disabled, "
          "batched self-attention with batch_first, see \"grad mode\"), which gives NaN; with "
          "need_weights=True all give NaN.</li>"
          "<li>Mixed bool/float masks: 1.13 ORs bool masks; 2.x converts both to float and adds "
          "them (and warns that mixing is deprecated).</li>"
          "<li><code>is_causal</code> exists only in 2.x and still needs an attn_mask; on the "
          "SDPA path without key_padding_mask PyTorch drops that mask for its own causal mask "
          "over every key column, bias_k and zero key included.</li>"
          "</ul>")},
  };
}

QMenu* addExplanationsMenu(QMenu* help, QWidget* parent) {
  QMenu* menu = help->addMenu(tr("Attention &explained"));
  menu->setObjectName(QStringLiteral("explanationsMenu"));
  for (const ExplanationPage& page : explanationPages()) {
    menu->addAction(page.title, parent, [page, parent] { showPage(page, parent); });
  }
  return menu;
}

}  // namespace mhaviz::ui
