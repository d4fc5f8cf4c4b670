#include "editors/causal_hint.hpp"

#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

#include "document/document.hpp"

namespace mhaviz::ui {

CausalHint::CausalHint(Document* document, QWidget* parent)
    : QWidget(parent),
      m_document(document),
      m_text(new QLabel(tr("is_causal is only a hint: PyTorch 2.x requires an attn_mask with "
                           "it (it does not make one)."))),
      m_fix(new QPushButton(tr("Use a causal attn_mask"))) {
  setObjectName(QStringLiteral("causalHint"));
  m_text->setWordWrap(true);
  m_text->setStyleSheet(QStringLiteral("QLabel { color: #5a4500; }"));
  m_fix->setObjectName(QStringLiteral("useCausalMask"));
  m_fix->setAutoDefault(false);
  m_fix->setToolTip(
      tr("Sets attn_mask to the causal mask (key j > query i masked), the mask "
         "the is_causal hint describes."));
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(m_text);
  layout->addWidget(m_fix, 0, Qt::AlignLeft);
  connect(m_fix, &QPushButton::clicked, this, [this] {
    mhaviz::Config next = m_document->config();
    next.attn_mask_spec.kind = gen::MaskKind::causal;
    m_document->changeConfig(next, tr("Use a causal attn_mask"));
  });
  connect(document, &Document::changed, this, [this](Document::Changes what) {
    if (what & Document::Change::config) follow(m_document->config());
  });
  follow(document->config());
}

QString CausalHint::isCausalToolTip() {
  return tr(
      "is_causal — forward(is_causal=True): a hint that attn_mask IS the causal mask, "
      "so a fast path may skip reading it. In PyTorch 2.x it requires attn_mask: without "
      "one forward fails with \"Need attn_mask if specifying the is_causal hint\". Set "
      "attn_mask to causal (the button below does it).");
}

void CausalHint::follow(const mhaviz::Config& config) {
  const auto tensors = m_document->tensors();
  const bool loadedMask = tensors != nullptr && tensors->contains("attn_mask");
  setVisible(config.is_causal && config.attn_mask_spec.kind == gen::MaskKind::none && !loadedMask);
}

}  // namespace mhaviz::ui
